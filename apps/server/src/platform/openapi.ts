// The OpenAPI document, finished from the contract: @fastify/swagger writes each route's schemas
// (the contract's zod schemas, with their constraints and names); this adds what a client needs to
// know besides, from the contract's table of operations (`API` in @parla/contract/api) and the
// server's shared mechanisms — each operation's stable name, summary, group and security, every
// error status it can answer in the one error body (a component), 204s, the cookies and the
// Retry-After header, and the multipart bodies and downloads that zod schemas cannot describe.
import { toJSONSchema, type $ZodType } from 'zod/v4/core';
import { API, API_TAGS, operationAt, type ApiOperation } from '@parla/contract/api';
import { COOKIES, XSRF_HEADER, LIMITS } from '@parla/contract/constants';
import { errorBodySchema } from '@parla/contract/errors';
import { segmentUploadFieldsSchema, TRANSCRIPT_FORMATS } from '@parla/contract/rooms';
import { userUpdateFieldsSchema, AVATAR_FORMATS } from '@parla/contract/accounts';

type Json = Record<string, unknown>;
interface Operation extends Json {
  parameters?: { in: string; name: string }[];
  requestBody?: Json;
  responses: Record<string, Json>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const schemaOf = (schema: $ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _ignored, ...json } = (toJSONSchema as (schema: $ZodType, options: object) => Json)(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' });
  return json;
};

const errorResponse = (description: string, headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

/** The error answers every operation may give, by status, as components. */
const ERRORS: Record<string, { name: string; response: Json }> = {
  '400': { name: 'BadRequest', response: errorResponse('Refused as sent (`validation_error`): each error names its field in `attr` (`non_field_errors` for the body as a whole).') },
  '401': { name: 'Unauthorized', response: errorResponse('Not signed in, or the token is invalid, expired or of an ended session (`not_authenticated`, `token_not_valid`).') },
  '403': { name: 'Forbidden', response: errorResponse('A cookie session without the right X-XSRF-TOKEN header (`csrf_failed`), or a role that does not allow this (`permission_denied`).') },
  '404': { name: 'NotFound', response: errorResponse('No such object, or not one of the caller’s (strangers, those who left and those only invited learn nothing of it).') },
  '429': {
    name: 'TooManyRequests',
    response: errorResponse('Over a rate limit (`throttled`); try again after Retry-After seconds.', {
      'Retry-After': { description: 'Seconds until the limit allows another request.', schema: { type: 'integer', minimum: 1 } },
    }),
  },
  '500': { name: 'ServerError', response: errorResponse('The server failed (`server_error`); the body says nothing more, the server’s log has the request id.') },
};

const SET_COOKIE = {
  'Set-Cookie': {
    description: `The session cookies: ${COOKIES.access} and ${COOKIES.refresh} (HttpOnly, SameSite=Lax), and ${COOKIES.xsrf}, to echo in the ${XSRF_HEADER} header of writes (cleared on sign-out).`,
    schema: { type: 'string' },
  },
};

/** Bodies and answers that are not JSON: forms with files, downloads. */
function special(id: keyof typeof API, operation: Operation): void {
  const binary = { type: 'string', format: 'binary' };
  switch (id) {
    case 'uploadSegment': {
      const fields = schemaOf(segmentUploadFieldsSchema, 'input') as { properties?: Json };
      operation.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['audio'],
              properties: {
                audio: { ...binary, description: `One utterance: WAV, Ogg or WebM (checked by content), at most ${LIMITS.segmentAudioMaxSeconds} s and ${LIMITS.segmentAudioMaxBytes / 1024 / 1024} MB.` },
                ...fields.properties,
              },
            },
          },
        },
      };
      break;
    }
    case 'replaceUser':
    case 'updateUser': {
      const json = schemaOf(userUpdateFieldsSchema, 'input') as { properties: Json; required?: string[] };
      // OpenAPI allows no empty `required` list: a PATCH names none.
      const required = id === 'replaceUser' ? { required: ['fullName'] } : {};
      operation.requestBody = {
        required: false,
        content: {
          'application/json': { schema: { type: 'object', properties: { ...json.properties, avatarImage: { nullable: true, type: 'string', enum: [''], description: 'null or "" removes the avatar.' } }, ...required } },
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                fullName: json.properties['fullName'],
                avatarImage: { ...binary, description: `${AVATAR_FORMATS.join(', ')} (checked by content), at most ${LIMITS.avatarMaxBytes / 1024 / 1024} MB; re-encoded to a ${LIMITS.avatarSize} px square. Empty: removes the avatar.` },
              },
              ...required,
            },
          },
        },
      };
      break;
    }
    case 'downloadTranscript':
      operation.responses['200'] = {
        description: `The transcript as a file: ${TRANSCRIPT_FORMATS.join(' or ')}.`,
        headers: { 'Content-Disposition': { description: 'attachment, with the file name', schema: { type: 'string' } } },
        content: { 'text/plain': { schema: { type: 'string' } }, 'application/x-subrip': { schema: { type: 'string' } } },
      };
      break;
    case 'getAudio':
      operation.responses['200'] = {
        description: 'The file (Ogg Opus, MP3, WAV or WebM). Range requests are answered.',
        content: { 'audio/*': { schema: binary } },
      };
      operation.responses['206'] = { description: 'The part a Range asked for.', content: { 'audio/*': { schema: binary } } };
      operation.responses['416'] = errorResponse('A Range past the end of the file.');
      operation.responses['302'] = {
        description: 'Files kept in an S3-compatible bucket (S3_BUCKET): a redirect to a signed URL of the file that expires in 5 minutes.',
        headers: { Location: { description: 'The signed URL', schema: { type: 'string', format: 'uri' } } },
      };
      break;
    case 'uploadAttachment':
      operation.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: {
                  ...binary,
                  description: `A picture (re-encoded to WebP, at most ${LIMITS.attachmentMaxPixels / 1_000_000} megapixels) or any other file but a program or script (checked by content), at most ${LIMITS.attachmentMaxBytes / 1024 / 1024} MB.`,
                },
              },
            },
          },
        },
      };
      break;
    case 'getAttachment':
      operation.responses['200'] = {
        description: 'The file: a picture (image/webp) inline, anything else as a download (Content-Disposition: attachment).',
        headers: { 'Content-Disposition': { description: 'inline or attachment, with the file name', schema: { type: 'string' } } },
        content: { 'image/webp': { schema: binary }, 'application/pdf': { schema: binary }, 'application/octet-stream': { schema: binary } },
      };
      operation.responses['206'] = { description: 'The part a Range asked for.', content: { '*/*': { schema: binary } } };
      operation.responses['416'] = errorResponse('A Range past the end of the file.');
      operation.responses['302'] = {
        description: 'Files kept in an S3-compatible bucket (S3_BUCKET): a redirect to a signed URL of the file that expires in 5 minutes.',
        headers: { Location: { description: 'The signed URL', schema: { type: 'string', format: 'uri' } } },
      };
      break;
    default:
      break;
  }
}

/** Finishes the document @fastify/swagger made (its `transformObject`). */
export function describeApi(doc: Json): Json {
  const paths = (doc['paths'] ?? {}) as Record<string, Record<string, Operation>>;
  for (const path of Object.keys(paths)) if (path.startsWith('/api/docs')) delete paths[path];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const found = operationAt(method, path);
      if (!found) throw new Error(`${method.toUpperCase()} ${path} is served but not in the contract's API table (packages/contract/src/api.ts)`);
      const [id, spec] = found;
      seen.add(id);
      describeOperation(id, spec, operation);
    }
  }
  const missing = Object.keys(API).filter((id) => !seen.has(id));
  if (missing.length) throw new Error(`in the contract's API table but not served: ${missing.join(', ')}`);

  const components = (doc['components'] ?? {}) as Json;
  return tidy({
    ...doc,
    info: {
      ...(doc['info'] as Json),
      description:
        'Multilingual group chats and live rooms. Sign in with POST /api/accounts/login/; then send the access token as a Bearer token, or use the session cookies and echo the XSRF-TOKEN cookie in the X-XSRF-TOKEN header of every write. Errors always have the body `{type, errors: [{code, attr, detail}]}`, detail in the request’s Accept-Language.',
      license: { name: 'Proprietary', url: 'https://example.com/parla/license' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    components: {
      ...components,
      schemas: { ...(components['schemas'] as Json | undefined), ErrorBody: schemaOf(errorBodySchema) },
      responses: Object.fromEntries(Object.values(ERRORS).map(({ name, response }) => [name, response])),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of POST /api/accounts/login/ or /token/refresh/ (5 minutes).' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: COOKIES.access, description: 'The HttpOnly access cookie set by sign-in and refresh.' },
        xsrfHeader: { type: 'apiKey', in: 'header', name: XSRF_HEADER, description: `With the session cookie, every write echoes the ${COOKIES.xsrf} cookie here.` },
      },
    },
  });
}

/**
 * What the zod conversion leaves that says nothing: `{allOf: [one]}` (an optional field of a named
 * schema) becomes that one, and named schemas no operation uses are dropped.
 */
function tidy(doc: Json): Json {
  const simplify = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(simplify);
    if (!node || typeof node !== 'object') return node;
    const entries = Object.entries(node as Json).map(([key, value]) => [key, simplify(value)] as const);
    const object = Object.fromEntries(entries) as Json;
    // OpenAPI 3.0.3: `nullable` widens the type only; an enum that may be null lists null itself,
    // or a strict validator refuses the null it allows (a new account's readingLanguage).
    const choices = object['enum'];
    if (object['nullable'] === true && Array.isArray(choices) && !choices.includes(null)) object['enum'] = [...choices, null];
    const allOf = object['allOf'];
    if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(object).length === 1) return allOf[0];
    return object;
  };
  const simple = simplify(doc) as Json;
  const components = simple['components'] as Json & { schemas: Json };
  const { components: _components, ...rest } = simple;
  const used = new Set<string>();
  const visit = (node: unknown) => {
    const text = JSON.stringify(node);
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(name!)) continue;
      used.add(name!);
      visit(components.schemas[name!]);
    }
  };
  visit(rest);
  visit(components['responses']);
  components.schemas = Object.fromEntries(Object.entries(components.schemas).filter(([name]) => used.has(name)));
  return simple;
}

function describeOperation(id: keyof typeof API, spec: ApiOperation, operation: Operation): void {
  operation['operationId'] = id;
  operation['summary'] = spec.summary;
  operation['tags'] = [spec.tag];
  const write = UNSAFE.has(spec.method);
  operation['security'] = spec.session ? [{ bearer: [] }, write ? { sessionCookie: [], xsrfHeader: [] } : { sessionCookie: [] }] : [];
  special(id, operation);
  // A body that may be null may also be left out (an empty JSON body reads as null).
  const json = (operation.requestBody?.['content'] as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema;
  if (operation.requestBody && json?.['nullable'] === true) operation.requestBody['required'] = false;

  const responses = operation.responses;
  // @fastify/swagger names an undeclared answer "Default Response": the real ones are these.
  if (spec.noContent) {
    delete responses['200'];
    responses['204'] = { description: 'Done; no content.' };
  }
  for (const [status, response] of Object.entries(responses)) {
    if (response['description'] !== 'Default Response') continue;
    response['description'] = status === '201' ? 'Created.' : status === '200' && responses['201'] ? 'Already stored (the same clientId): what was stored.' : 'OK.';
  }
  if (spec.setsCookies) for (const status of ['200']) if (responses[status]) responses[status] = { ...responses[status], headers: SET_COOKIE };

  const hasInput = operation.requestBody !== undefined || (operation.parameters ?? []).some((parameter) => parameter.in === 'query');
  const errors = new Set<string>(['500']);
  if (hasInput || write) errors.add('400');
  if (spec.session || spec.checksToken) errors.add('401');
  // A write with the session cookies needs the XSRF header; chat and room work needs a role.
  if ((write && (spec.session || spec.checksToken)) || (spec.session && (spec.tag === 'chat' || spec.tag === 'rooms'))) errors.add('403');
  // An object named in the path, or by an id in the query (a search within one chat).
  if ((operation.parameters ?? []).some((parameter) => parameter.in === 'path' || (parameter.in === 'query' && /Id$/.test(parameter.name)))) errors.add('404');
  if (spec.limited || (spec.session && write)) errors.add('429');
  for (const status of errors) responses[status] ??= { $ref: `#/components/responses/${ERRORS[status]!.name}` };
}
