// /api/accounts/*: thin handlers over the accounts service.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  passwordChangeRequestSchema,
  passwordResetConfirmRequestSchema,
  passwordResetRequestSchema,
  registerRequestSchema,
  resendEmailRequestSchema,
  tokenRefreshRequestSchema,
  tokenRefreshResponseSchema,
  tokenVerifyRequestSchema,
  userSchema,
  userUpdateFieldsSchema,
  verifyEmailRequestSchema,
} from '@parla/contract/accounts';
import { COOKIES, LIMITS } from '@parla/contract/constants';
import { detailSchema } from '@parla/contract/errors';
import { checkXsrf, clearSessionCookies, setSessionCookies } from '../../core/auth';
import { fieldError, notAuthenticated } from '../../core/errors';
import { translate } from '../../core/i18n';
import { parseOrThrow } from '../../core/validation';
import type { AppContext } from '../../core/context';
import { createAccountsRepository } from './repository';
import { createAccountsService, type SessionTokens } from './service';

const tags = ['accounts'];

export async function accountsRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, limiter, tokens, requireUser } = ctx;
  const accounts = createAccountsService({
    repo: createAccountsRepository(ctx.db),
    tokens,
    mailer: ctx.mailer,
    storage: ctx.storage,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const secure = config.publicUrl.startsWith('https://');
  const window = config.rateLimits.windowMs;
  const limits = config.rateLimits;
  const setCookies = (reply: Parameters<typeof setSessionCookies>[0], session: SessionTokens) =>
    setSessionCookies(reply, { secure, access: session.access, refresh: session.refresh, xsrf: tokens.xsrfFor(session.sessionId) });
  const detail = (request: FastifyRequest, key: Parameters<typeof translate>[1]) => ({ detail: translate(request.lang, key) });

  app.post('/api/accounts/login/', { schema: { tags, body: loginRequestSchema, response: { 200: loginResponseSchema } } }, async (request, reply) => {
    await limiter.hit(`login:address:${request.ip}`, limits.loginPerAddress, window);
    await limiter.hit(`login:account:${request.body.email.toLowerCase()}`, limits.login, window);
    const session = await accounts.login(request.body);
    setCookies(reply, session);
    return {
      access: session.access.token,
      refresh: session.refresh.token,
      user: session.user,
      accessExpiration: session.access.expiresAt.toISOString(),
      refreshExpiration: session.refresh.expiresAt.toISOString(),
    };
  });

  const logout = async (request: FastifyRequest, reply: Parameters<typeof clearSessionCookies>[0], body: z.infer<typeof logoutRequestSchema>) => {
    const bearer = request.headers.authorization?.replace(/^bearer\s+/i, '');
    await accounts.logout([body?.refresh, request.cookies[COOKIES.refresh], bearer, request.cookies[COOKIES.access]]);
    clearSessionCookies(reply);
    return detail(request, 'loggedOut');
  };
  app.get('/api/accounts/logout/', { schema: { tags, response: { 200: detailSchema } } }, (request, reply) => logout(request, reply, undefined));
  app.post('/api/accounts/logout/', { schema: { tags, body: logoutRequestSchema, response: { 200: detailSchema } } }, (request, reply) =>
    logout(request, reply, request.body),
  );

  app.post(
    '/api/accounts/registration/',
    { schema: { tags, body: registerRequestSchema, response: { 201: detailSchema } } },
    async (request, reply) => {
      await limiter.hit(`registration:${request.ip}`, limits.registration, window);
      await accounts.register(request.body, request.lang);
      return reply.code(201).send(detail(request, 'verificationSent'));
    },
  );

  app.post(
    '/api/accounts/registration/resend-email/',
    { schema: { tags, body: resendEmailRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      await limiter.hit(`email:${request.ip}`, limits.email, window);
      await limiter.hit(`email:${request.body.email.toLowerCase()}`, limits.email, window);
      await accounts.resendActivation(request.body.email, request.lang);
      return detail(request, 'verificationSent');
    },
  );

  app.post(
    '/api/accounts/registration/verify-email/',
    { schema: { tags, body: verifyEmailRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      await limiter.hit(`verify:${request.ip}`, limits.loginPerAddress, window);
      await accounts.verifyEmail(request.body.key);
      return detail(request, 'activated');
    },
  );

  app.post(
    '/api/accounts/token/refresh/',
    { schema: { tags, body: tokenRefreshRequestSchema, response: { 200: tokenRefreshResponseSchema } } },
    async (request, reply) => {
      const fromBody = request.body?.refresh;
      const token = fromBody ?? request.cookies[COOKIES.refresh];
      if (!token) throw notAuthenticated();
      if (!fromBody) {
        // The cookie is the credential here, so the XSRF echo is required as on any cookie call.
        const claims = await tokens.verify(token, 'refresh');
        if (claims) checkXsrf(request, tokens, claims.sessionId);
      }
      const session = await accounts.refresh(token);
      setCookies(reply, session);
      return {
        access: session.access.token,
        accessExpiration: session.access.expiresAt.toISOString(),
        refreshExpiration: session.refresh.expiresAt.toISOString(),
        ...(fromBody ? { refresh: session.refresh.token } : {}),
      };
    },
  );

  app.post('/api/accounts/token/verify/', { schema: { tags, body: tokenVerifyRequestSchema, response: { 200: detailSchema } } }, async (request) => {
    await accounts.verifyToken(request.body.token);
    return detail(request, 'tokenValid');
  });

  app.post(
    '/api/accounts/password/change/',
    { onRequest: requireUser, schema: { tags, body: passwordChangeRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      const auth = request.auth!;
      await accounts.changePassword(auth.userId, auth.sessionId, request.body);
      return detail(request, 'passwordChanged');
    },
  );

  app.post('/api/accounts/password/reset/', { schema: { tags, body: passwordResetRequestSchema, response: { 200: detailSchema } } }, async (request) => {
    await limiter.hit(`email:${request.ip}`, limits.email, window);
    await limiter.hit(`email:${request.body.email.toLowerCase()}`, limits.email, window);
    await accounts.requestPasswordReset(request.body.email, request.lang);
    return detail(request, 'resetSent');
  });

  app.post(
    '/api/accounts/password/reset/confirm/',
    { schema: { tags, body: passwordResetConfirmRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      await limiter.hit(`reset-confirm:${request.ip}`, limits.loginPerAddress, window);
      await accounts.confirmPasswordReset(request.body);
      return detail(request, 'resetDone');
    },
  );

  app.get('/api/accounts/user/', { onRequest: requireUser, schema: { tags, response: { 200: userSchema } } }, (request) =>
    accounts.getUser(request.auth!.userId),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    const fieldsSchema = method === 'PUT' ? userUpdateFieldsSchema : z.partial(userUpdateFieldsSchema);
    app.route({
      method,
      url: '/api/accounts/user/',
      onRequest: requireUser,
      schema: {
        tags,
        description: 'multipart/form-data (fullName, avatarImage file) or JSON (fullName, avatarImage: null to remove).',
        consumes: ['multipart/form-data', 'application/json'],
        response: { 200: userSchema },
      },
      handler: async (request) => {
        const { fields, avatar } = await readUserForm(request);
        const parsed = parseOrThrow(fieldsSchema, fields);
        const removeAvatar = parsed.avatarImage === null || parsed.avatarImage === '';
        return accounts.updateUser(request.auth!.userId, {
          fullName: parsed.fullName,
          avatar: avatar ?? (removeAvatar ? null : undefined),
        });
      },
    });
  }
}

/** The profile form: multipart with one optional file `avatarImage`, or a JSON body. */
async function readUserForm(request: FastifyRequest): Promise<{ fields: Record<string, unknown>; avatar?: Buffer }> {
  if (!request.isMultipart()) {
    const body = request.body;
    return { fields: body && typeof body === 'object' ? (body as Record<string, unknown>) : {} };
  }
  const fields: Record<string, unknown> = {};
  let avatar: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: LIMITS.avatarMaxBytes, files: 1, fields: 20 } })) {
      if (part.type === 'file') {
        const file = part as MultipartFile;
        const content = await file.toBuffer();
        if (file.fieldname !== 'avatarImage') throw fieldError(file.fieldname, 'unknownField', { field: file.fieldname }, 'unknown_field');
        if (content.length > 0) avatar = content;
        else fields['avatarImage'] = '';
      } else {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw fieldError('avatarImage', 'avatarTooLarge', { max: LIMITS.avatarMaxBytes / 1024 / 1024 }, 'file_too_large');
    }
    if (code === 'FST_FILES_LIMIT') throw fieldError('avatarImage', 'tooManyFiles', undefined, 'too_many_files');
    throw error;
  }
  return avatar ? { fields, avatar } : { fields };
}
