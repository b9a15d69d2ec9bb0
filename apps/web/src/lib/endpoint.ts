// The calls typed by the server's OpenAPI document (src/lib/openapi.gen.ts, written by
// `npm run api-types -w @parla/web`), in the spirit of openapi-fetch but on top of the HTTP client
// (src/lib/http.ts), so the session guard, the error catalogue and cancellation stay as they are.
//
// `endpoint(method, path, init)` names one of the document's operations by its path template and
// method and takes what the operation takes: `path` parameters, `query` parameters and the
// request `body` (FormData for a multipart one). It returns the request for the HTTP client,
// typed with the operation's answer: the JSON of its 200/201, or undefined for a 204. `call`,
// `fetchOrThrow` (src/lib/api.ts) and `succeeded` (src/lib/queries.ts) send only such requests, so
// a path, a parameter, a body or an answer type the document does not describe is a type error;
// `call<ChatMessage>(endpoint(...))` also checks that the document's answer is a ChatMessage of
// the contract.
import type { paths } from './openapi.gen';

/** One HTTP request as the client's transport (lib/http.ts) sends it. */
export interface RequestConfig {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** A plain object goes as JSON, FormData as multipart. */
  data?: unknown;
  params?: Record<string, string | number | boolean | undefined>;
  onUploadProgress?: (fraction: number) => void;
  /** Internal calls (the guard's own refresh) handle their failures themselves. */
  skipErrorCatalogue?: boolean;
}

export type HttpMethod = NonNullable<RequestConfig['method']>;

/** The document's path templates that have an operation for `method`. */
export type ApiPath<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends Record<Lowercase<M>, object> ? P : never;
}[keyof paths];

/** The document's operation at `method` and `path`. */
export type ApiOperation<M extends HttpMethod, P extends ApiPath<M>> = paths[P] extends Record<Lowercase<M>, infer O> ? O : never;

type ParametersOf<O> = O extends { parameters: infer Parameters } ? Parameters : never;

type PathInit<O> = ParametersOf<O> extends { path: infer Path } ? { path: Path } : { path?: never };

type QueryInit<O> =
  ParametersOf<O> extends { query: infer Query }
    ? { query: Query }
    : ParametersOf<O> extends { query?: infer Query }
      ? [Exclude<Query, undefined>] extends [never]
        ? { query?: never }
        : { query?: Exclude<Query, undefined> }
      : { query?: never };

/** A JSON body as the document writes it; FormData stands for a multipart one. */
type BodyOf<Content> =
  | (Content extends { 'application/json': infer Json } ? Json : never)
  | (Content extends { 'multipart/form-data': unknown } ? FormData : never);

type BodyInit<O> = O extends { requestBody?: never }
  ? { body?: never }
  : O extends { requestBody: { content: infer Content } }
    ? { body: BodyOf<Content> }
    : O extends { requestBody?: { content: infer Content } }
      ? { body?: BodyOf<Content> }
      : { body?: never };

/** What a call takes: the operation's parameters and body, and the client's own options. */
export type ApiInit<O> = PathInit<O> &
  QueryInit<O> &
  BodyInit<O> &
  Pick<RequestConfig, 'onUploadProgress' | 'skipErrorCatalogue'>;

type SuccessStatus = 200 | 201 | 202 | 204;

type JsonAnswer<Response> = Response extends { content: { 'application/json': infer Json } }
  ? Json
  : Response extends { content?: never }
    ? undefined
    : unknown;

/** The JSON of the operation's success (200 or 201), undefined for a 204 (no content). */
export type ApiAnswer<O> = O extends { responses: infer Responses } ? JsonAnswer<Responses[Extract<keyof Responses, SuccessStatus>]> : never;

declare const answerType: unique symbol;

/** A request for one of the document's operations, carrying the type of its answer. */
export interface ApiRequest<T> extends RequestConfig {
  /** Never present at run time: the answer's type, for `call`, `fetchOrThrow` and `succeeded`. */
  readonly [answerType]: T;
}

type InitArgs<O> = object extends ApiInit<O> ? [init?: ApiInit<O>] : [init: ApiInit<O>];

interface LooseInit {
  path?: Record<string, string | number>;
  query?: RequestConfig['params'];
  body?: unknown;
  onUploadProgress?: RequestConfig['onUploadProgress'];
  skipErrorCatalogue?: boolean;
}

/** `/api/chat/{groupChatId}/messages/{id}/` with its parameters filled in. */
function fillPath(template: string, parameters: Record<string, string | number> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = parameters[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/** The request for the document's operation at `method` and `path`. */
export function endpoint<M extends HttpMethod, P extends ApiPath<M>>(
  method: M,
  path: P,
  ...init: InitArgs<ApiOperation<M, P>>
): ApiRequest<ApiAnswer<ApiOperation<M, P>>>;
export function endpoint(method: HttpMethod, path: string, given?: object): RequestConfig {
  const init: LooseInit = given ?? {};
  const config: RequestConfig = { method, url: fillPath(path, init.path) };
  if (init.query !== undefined) config.params = init.query;
  if (init.body !== undefined) config.data = init.body;
  if (init.onUploadProgress) config.onUploadProgress = init.onUploadProgress;
  if (init.skipErrorCatalogue) config.skipErrorCatalogue = true;
  return config;
}

/** The address of a GET operation, for what the browser fetches itself (downloads). */
export function apiHref<P extends ApiPath<'GET'>>(path: P, ...init: InitArgs<ApiOperation<'GET', P>>): string;
export function apiHref(path: string, given?: object): string {
  const init: LooseInit = given ?? {};
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(init.query ?? {})) if (value !== undefined) query.set(key, String(value));
  const search = query.toString();
  return `${fillPath(path, init.path)}${search ? `?${search}` : ''}`;
}
