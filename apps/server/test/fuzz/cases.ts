// The bad requests of one operation: a valid request built from the operation's schemas, then one
// mutation at a time. Cases the spec of the guard names are "essential" and always sent; the others
// fill the operation up to its minimum count in a seeded order, then seeded random cases follow.
import type { Operation, Param } from './operations';
import type { Random } from './random';
import { BASE_TEXT, REMOVE, RawJson, clone, encodeJson, setOwn, showPath, withValue, type Field, type Schemas } from './schema';

export type Family =
  | 'wrong-type'
  | 'missing-field'
  | 'enum'
  | 'control-char'
  | 'oversize'
  | 'empty-string'
  | 'odd-text'
  | 'id-as-text'
  | 'number-range'
  | 'array'
  | 'object'
  | 'extra-field'
  | 'proto-key'
  | 'deep-nesting'
  | 'body-shape'
  | 'json-syntax'
  | 'body-size'
  | 'content-type'
  | 'multipart'
  | 'query'
  | 'path-id'
  | 'accept-language'
  | 'auth'
  | 'random';

export interface Case {
  op: string;
  family: Family;
  label: string;
  essential: boolean;
  method: string;
  /** Path and query as sent, already encoded (node:http sends it untouched). */
  path: string;
  /** Header values as latin1 strings (bytes), as node:http writes them. */
  headers: Record<string, string>;
  /** Made when the request is sent (bodies reach megabytes). */
  body: () => Buffer | undefined;
  /** Attach the operation's session (Bearer or cookie + XSRF, chosen by the runner). */
  credentials: boolean;
  /** Send the cookie session without the X-XSRF-TOKEN header, or with a wrong one. */
  xsrf?: 'missing' | 'wrong';
  /** The field or parameter this case changed: a 400 must name it (`attr`). */
  attr?: string;
}

/** What a world gives the valid request of an operation: real path ids, and a body or query where examples would not be valid. */
export interface WorldRequest {
  pathValues?: Record<string, string>;
  body?: unknown;
  query?: [string, string][];
  /** Files of a multipart body (with the body's text fields): the request is sent as a form. */
  files?: WorldFile[];
}

/** A file of a valid form, and the wrong ones to send in its place. */
export interface WorldFile {
  name: string;
  data: Buffer;
  filename: string;
  contentType: string;
  variants?: { label: string; data: Buffer; filename?: string; contentType?: string; essential?: boolean }[];
}

export interface CaseOptions {
  op: Operation;
  schemas: Schemas;
  rng: Random;
  bodyLimit: number;
  /** The operation answers 401 without a session. */
  needsSession: boolean;
  /** At least this many cases per operation. */
  minCases: number;
  /** At least this many seeded random cases per operation, on top of the essential ones. */
  minRandom: number;
  /** The valid bearer token of the operation's session, for the tampered-token case. */
  sampleBearer?: string;
  /** The operation's valid request in its world (path values may be `{name}` placeholders filled when sent). */
  world?: WorldRequest;
}

const KB = 1024;
const JSON_TYPE = 'application/json';
const BOUNDARY = 'guard-7MA4YWxkTrZu0gW';
/** Beyond Node's default 16 KB header limit. */
const OVER_HEADER_LIMIT = 20 * KB;

export const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const enc = encodeURIComponent;

/** A short, escaped rendering of a value for a case label. */
export function show(value: unknown, max = 48): string {
  if (value instanceof RawJson) return value.label;
  if (typeof value === 'string') {
    if (value.length > max) return `${JSON.stringify(value.slice(0, max / 3)).slice(0, -1)}…" (${size(value.length)})`;
    return JSON.stringify(value);
  }
  const text = JSON.stringify(encodeJson(value)).slice(1, -1).replace(/\\"/g, '"');
  return text.length > max ? `${text.slice(0, max - 8)}… (${size(text.length)})` : text;
}

export function size(length: number): string {
  if (length >= KB * KB) return `${(length / KB / KB).toFixed(length % (KB * KB) === 0 ? 0 : 2)} MB`;
  if (length >= KB) return `${Math.round(length / KB)} KB`;
  return `${length} chars`;
}

/** The valid parts of a request of `op`; every case changes one of them. */
export interface ValidRequest {
  pathValues: Record<string, string>;
  query: [string, string][];
  body: unknown;
  fields: Field[];
  files: WorldFile[];
}

export function validRequest(op: Operation, schemas: Schemas, world: WorldRequest = {}): ValidRequest {
  const pathValues: Record<string, string> = {};
  const query: [string, string][] = [];
  for (const param of op.params) {
    const { schema } = schemas.effective(param.schema);
    const kind = schemas.kind(schema);
    if (param.in === 'path') {
      pathValues[param.name] = kind === 'integer' || kind === 'number' || /id$/i.test(param.name) ? '1' : enc(String(schemas.example(param.schema)));
    } else if (param.in === 'query') {
      const value = schemas.example(param.schema);
      for (const item of Array.isArray(value) ? value : [value]) query.push([param.name, String(item)]);
    }
  }
  Object.assign(pathValues, world.pathValues);
  const body = op.body ? (world.body !== undefined ? world.body : (schemas.example(op.body.schema ?? { type: 'object' }) ?? {})) : undefined;
  const fields = op.body ? schemas.fields(op.body.schema ?? { type: 'object' }, body) : [];
  return { pathValues, query: world.query ?? query, body, fields, files: world.files ?? [] };
}

/** The request of `op` from its valid parts, with `overrides` applied. */
export function assemble(op: Operation, valid: ValidRequest, overrides: Overrides = {}): { path: string; headers: Record<string, string>; body: () => Buffer | undefined } {
  const pathValues = { ...valid.pathValues, ...overrides.pathValues };
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => pathValues[name] ?? '1');
  const query = overrides.query ?? queryString(valid.query);
  const headers: Record<string, string> = { accept: JSON_TYPE };
  let body: () => Buffer | undefined = () => undefined;
  let contentType: string | null | undefined;
  const { raw, json } = overrides;
  if (raw !== undefined) {
    body = () => {
      const made = typeof raw === 'function' ? raw() : raw;
      return Buffer.isBuffer(made) ? made : Buffer.from(made, 'utf8');
    };
    contentType = overrides.contentType === undefined ? JSON_TYPE : overrides.contentType;
  } else if (json === undefined && valid.files.length) {
    // A form: the body's text fields and the files.
    body = () => multipart([...textPartsOf(valid.body), ...valid.files.map((file) => ({ name: file.name, value: file.data, filename: file.filename, contentType: file.contentType }))]);
    contentType = `multipart/form-data; boundary=${BOUNDARY}`;
  } else if (json !== undefined || (op.body !== undefined && valid.body !== undefined)) {
    body = () => Buffer.from(encodeJson(json !== undefined ? json : valid.body), 'utf8');
    contentType = overrides.contentType === undefined ? JSON_TYPE : overrides.contentType;
  }
  if (contentType !== null && contentType !== undefined) headers['content-type'] = contentType;
  Object.assign(headers, overrides.headers);
  return { path: query ? `${path}?${query}` : path, headers, body };
}

export function queryString(pairs: [string, string][]): string {
  return pairs.map(([key, value]) => `${enc(key)}=${enc(value)}`).join('&');
}

export interface Overrides {
  pathValues?: Record<string, string>;
  /** The raw query string (without "?"), replacing the valid one. */
  query?: string;
  /** A JSON value for the body (encoded with encodeJson). */
  json?: unknown;
  /** Raw body bytes (or a function making them); `contentType` null sends no Content-Type. */
  raw?: Buffer | string | (() => Buffer | string);
  contentType?: string | null;
  headers?: Record<string, string>;
  credentials?: boolean;
  xsrf?: Case['xsrf'];
  attr?: string;
}

/** The text fields of a form: a body's string, number and boolean values. */
function textPartsOf(body: unknown): Part[] {
  const object = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return Object.entries(object)
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    .map(([name, value]) => ({ name, value: String(value) }));
}

/** Multipart form parts. */
interface Part {
  name: string;
  value: Buffer | string;
  filename?: string;
  contentType?: string;
  /** The whole Content-Disposition value, replacing the one made from name and filename. */
  disposition?: string;
}

function multipart(parts: Part[], options: { boundary?: string; close?: boolean } = {}): Buffer {
  const boundary = options.boundary ?? BOUNDARY;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.disposition ?? `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head, 'utf8'), typeof part.value === 'string' ? Buffer.from(part.value, 'utf8') : part.value, Buffer.from('\r\n'));
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Bytes that look like no image format. */
const junk = (length: number) => Buffer.alloc(length, 'guard-not-an-image ');

const WRONG_TYPES: { type: string; value: unknown }[] = [
  { type: 'number', value: 1 },
  { type: 'boolean', value: true },
  { type: 'null', value: null },
  { type: 'array', value: [] },
  { type: 'object', value: {} },
  { type: 'string', value: 'guard' },
];

/** Control characters and broken UTF-16, inserted in the middle of a valid text. */
const CONTROL: { name: string; char: string; essential: boolean }[] = [
  { name: 'NUL', char: '\u0000', essential: true },
  { name: 'SOH', char: '\u0001', essential: true },
  { name: 'ESC', char: '\u001b', essential: true },
  { name: 'DEL', char: '\u007f', essential: true },
  { name: 'lone high surrogate', char: '\ud800', essential: true },
  { name: 'lone low surrogate', char: '\udc00', essential: false },
  { name: 'C1 control', char: '\u0085', essential: false },
  { name: 'vertical tab', char: '\u000b', essential: false },
];

const NUMBERS: { value: unknown; essential: boolean }[] = [
  { value: 0, essential: true },
  { value: -1, essential: true },
  { value: 2 ** 31, essential: true },
  { value: 2 ** 53, essential: true },
  { value: 1e308, essential: true },
  { value: 'NaN', essential: true },
  { value: new RawJson('-0'), essential: true },
  { value: 1.5, essential: true },
  { value: new RawJson('1e309', '1e309 (Infinity)'), essential: false },
  { value: new RawJson('99999999999999999999'), essential: false },
  { value: 2 ** 31 - 1, essential: false },
  { value: -(2 ** 31) - 1, essential: false },
  { value: '1', essential: false },
  { value: new RawJson('1.0'), essential: false },
  { value: new RawJson('-1e-400', '-1e-400 (-0)'), essential: false },
  { value: Number.MIN_SAFE_INTEGER, essential: false },
];

/** Out-of-range and malformed ids as text, plain and base64url (the reset link's uid encoding). */
const IDS_AS_TEXT: { value: string; label: string; essential: boolean }[] = [
  { value: b64url('2147483648'), label: 'base64url("2147483648")', essential: true },
  { value: b64url('99999999999999999999'), label: 'base64url("99999999999999999999")', essential: true },
  { value: '2147483648', label: '"2147483648"', essential: true },
  { value: b64url('0'), label: 'base64url("0")', essential: false },
  { value: b64url('-1'), label: 'base64url("-1")', essential: false },
  { value: b64url('1e3'), label: 'base64url("1e3")', essential: false },
  { value: b64url('9007199254740993'), label: 'base64url("9007199254740993")', essential: false },
  { value: b64url('1'), label: 'base64url("1")', essential: false },
  { value: '99999999999999999999', label: '"99999999999999999999"', essential: false },
  { value: '-1', label: '"-1"', essential: false },
];

const ODD_TEXT: { value: string; label?: string }[] = [
  { value: '   ', label: 'whitespace only' },
  { value: '\t\n\r', label: 'tab, newline, CR' },
  { value: '\u2028\u2029', label: 'line/paragraph separators' },
  { value: '\ufeffguard', label: 'BOM + text' },
  { value: '\u202eguard', label: 'right-to-left override' },
  { value: 'e\u0301\u0301\u0301\u0301\u0301\u0301', label: 'stacked combining marks' },
  { value: "' OR '1'='1' --", label: 'SQL quote' },
  { value: '%00%ff', label: 'percent-escapes' },
  { value: '../../../../etc/passwd', label: 'path traversal' },
  { value: '<script>alert(1)</script>', label: 'markup' },
  { value: '${jndi:ldap://x}{{7*7}}', label: 'template syntax' },
  { value: '\\u0000', label: 'escaped-looking NUL' },
];

const PATH_IDS: { value: string; essential: boolean }[] = [
  { value: '0', essential: true },
  { value: '-1', essential: true },
  { value: '2147483648', essential: true },
  { value: '99999999999999999999', essential: true },
  { value: '1e3', essential: true },
  { value: 'abc', essential: true },
  { value: '%00', essential: true },
  { value: '../', essential: true },
  { value: '..', essential: true },
  { value: '', essential: false },
  { value: '1.5', essential: false },
  { value: '-0', essential: false },
  { value: '%201', essential: false },
  { value: '0x10', essential: false },
  { value: '1%00', essential: false },
  { value: '%ff', essential: false },
  { value: '%2e%2e%2f', essential: false },
  { value: '9'.repeat(4000), essential: false },
  { value: 'null', essential: false },
  { value: '9007199254740993', essential: false },
  { value: 'Infinity', essential: false },
  { value: '1;', essential: false },
];

const QUERY_VALUES: { value: string; label?: string; essential: boolean }[] = [
  { value: '0', essential: true },
  { value: '-1', essential: true },
  { value: '2147483648', essential: true },
  { value: '9007199254740992', essential: true },
  { value: '1e308', essential: true },
  { value: 'NaN', essential: true },
  { value: '-0', essential: true },
  { value: '1.5', essential: true },
  { value: 'abc', essential: true },
  { value: '', essential: true },
  { value: 'true', essential: true },
  { value: '\u0000', label: 'NUL', essential: true },
  { value: 'x'.repeat(8 * KB), label: '8 KB', essential: true },
  { value: 'Infinity', essential: false },
  { value: '0x10', essential: false },
  { value: '1e3', essential: false },
  { value: ' 1', essential: false },
  { value: 'null', essential: false },
  { value: '[]', essential: false },
  { value: '{}', essential: false },
  { value: '99999999999999999999', essential: false },
  { value: '1\u0000', label: '1 + NUL', essential: false },
  { value: '\u001b[31m', label: 'ESC sequence', essential: false },
  { value: '\ud800', label: 'lone surrogate', essential: false },
];

const ACCEPT_LANGUAGE: { value: string; label: string; essential: boolean }[] = [
  { value: '', label: 'empty', essential: true },
  { value: '*', label: '*', essential: true },
  { value: 'es-ES;q=0.9, '.repeat(Math.ceil((10 * KB) / 13)).slice(0, 10 * KB), label: '10 KB list', essential: true },
  { value: 'es;q=abc', label: 'es;q=abc', essential: true },
  { value: 'q=abc', label: 'q=abc', essential: true },
  { value: latin1('日本語, русский;q=0.8'), label: 'non-ASCII (UTF-8 bytes)', essential: true },
  { value: 'espa\u00f1ol', label: 'non-ASCII (latin1 byte)', essential: true },
  { value: 'es;q=1e999', label: 'es;q=1e999', essential: false },
  { value: 'es;q=-1, en;q=NaN', label: 'negative and NaN q', essential: false },
  { value: ',,,;;;=;q=', label: 'separators only', essential: false },
  { value: 'x'.repeat(10 * KB), label: '10 KB without separators', essential: false },
  { value: 'es;q=0.5,'.repeat(1000), label: '1000 entries', essential: false },
  { value: '-, es-, -es', label: 'dangling hyphens', essential: false },
  { value: '__proto__, constructor;q=0.9', label: 'prototype names', essential: false },
];

const CONTENT_TYPES: { value: string | null; label: string; essential: boolean; body?: string }[] = [
  { value: 'text/plain', label: 'text/plain', essential: true },
  { value: 'application/x-www-form-urlencoded', label: 'application/x-www-form-urlencoded (JSON text)', essential: true },
  { value: 'multipart/form-data', label: 'multipart/form-data without boundary', essential: true },
  { value: 'application/json; charset=latin1', label: 'application/json; charset=latin1', essential: true },
  { value: `application/json; x=${'a'.repeat(480)}`, label: 'application/json with a 500-char parameter', essential: true },
  { value: 'a'.repeat(500), label: '500-char content type', essential: true },
  { value: null, label: 'none', essential: true },
  { value: '', label: 'empty', essential: true },
  { value: 'application/x-www-form-urlencoded', label: 'application/x-www-form-urlencoded (a=b)', essential: false, body: 'a=b&a=c&__proto__[x]=1' },
  { value: 'application/json; charset=utf-16', label: 'application/json; charset=utf-16', essential: false },
  { value: 'application/JSON', label: 'application/JSON', essential: false },
  { value: 'application/json;charset=UTF-8', label: 'application/json;charset=UTF-8', essential: false },
  { value: 'application/vnd.api+json', label: 'application/vnd.api+json', essential: false },
  { value: '*/*', label: '*/*', essential: false },
  { value: 'application/json, text/plain', label: 'two types', essential: false },
  { value: 'application/xml', label: 'application/xml', essential: false },
  { value: 'image/png', label: 'image/png', essential: false },
  { value: 'application/json; boundary=x; charset=', label: 'empty charset', essential: false },
  { value: 'multipart/mixed; boundary=x', label: 'multipart/mixed', essential: false },
];

const deepObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deepArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

export function casesFor(options: CaseOptions): Case[] {
  const { op, schemas, rng, bodyLimit } = options;
  const valid = validRequest(op, schemas, options.world);
  const essentials: Case[] = [];
  const optionals: Case[] = [];
  const randoms: Case[] = [];
  const hasBody = op.body !== undefined;
  const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(op.method);

  function build(family: Family, label: string, essential: boolean, overrides: Overrides = {}): void {
    const { path, headers, body } = assemble(op, valid, overrides);
    const target = family === 'random' ? randoms : essential ? essentials : optionals;
    target.push({
      op: op.key,
      family,
      label,
      essential,
      method: op.method,
      path,
      headers,
      body,
      credentials: overrides.credentials ?? options.needsSession,
      ...(overrides.xsrf ? { xsrf: overrides.xsrf } : {}),
      ...(overrides.attr ? { attr: overrides.attr } : {}),
    });
  }

  const json = (family: Family, label: string, essential: boolean, value: unknown, extra: Overrides = {}) =>
    build(family, label, essential, { ...extra, json: value === null ? new RawJson('null') : value });
  const raw = (family: Family, label: string, essential: boolean, text: Overrides['raw'], contentType: string | null = JSON_TYPE) =>
    build(family, label, essential, { raw: text, contentType });

  // ---- body fields ----
  const jsonBody = hasBody ? valid.body : undefined;
  for (const field of valid.fields) fieldCases(field);

  function fieldCases(field: Field): void {
    const where = showPath('body', field.path);
    const attr = field.path.map(String).join('.');
    const at = (family: Family, essential: boolean, value: unknown, label = show(value)) =>
      json(family, `${where} = ${label}`, essential, withValue(jsonBody, field.path, value), { attr });
    for (const wrong of WRONG_TYPES) {
      if (wrong.type === 'number' && (field.kind === 'integer' || field.kind === 'number')) continue;
      if (wrong.type === field.kind || (wrong.type === 'string' && field.kind === 'enum' && typeof schemas.choices(field.schema)[0] === 'string')) continue;
      at('wrong-type', true, wrong.value);
    }
    // An object whose toString is not a function: String(value) throws on it.
    at('wrong-type', true, { toString: 'guard', valueOf: 'guard' }, '{toString: "guard", valueOf: "guard"}');
    json('missing-field', `${where} missing`, true, withValue(jsonBody, field.path, REMOVE), { attr });
    // String(value) of deep arrays recurses: an error message that quotes the input overflows the stack.
    at('deep-nesting', true, new RawJson(deepArrays(10_000), '10k nested arrays'));
    switch (field.kind) {
      case 'string':
        stringCases(field, where, at);
        break;
      case 'enum': {
        const choices = schemas.choices(field.schema);
        const first = choices[0];
        if (typeof first === 'string') {
          at('enum', true, 'GUARD_NOT_A_CHOICE');
          at('enum', true, '', '"" (empty)');
          if (first.toLowerCase() !== first) at('enum', false, first.toLowerCase());
          else if (first.toUpperCase() !== first) at('enum', false, first.toUpperCase());
          at('enum', false, `${first} `);
          at('enum', false, `${first}\u0000`);
          at('enum', false, 'x'.repeat(10 * KB), '10 KB string');
        } else {
          const numbers = choices.filter((choice): choice is number => typeof choice === 'number');
          at('enum', true, 0);
          at('enum', true, -1);
          at('enum', true, 2 ** 31);
          at('enum', true, String(first));
          at('enum', false, 1.5);
          if (numbers.length) at('enum', false, Math.max(...numbers) + 1);
          at('enum', false, 'GUARD_NOT_A_CHOICE');
        }
        break;
      }
      case 'integer':
      case 'number': {
        for (const number of NUMBERS) at('number-range', number.essential, number.value);
        const { minimum, maximum } = field.schema;
        if (typeof minimum === 'number') at('number-range', false, minimum - 1);
        if (typeof maximum === 'number' && maximum < Number.MAX_SAFE_INTEGER) at('number-range', false, maximum + 1);
        break;
      }
      case 'boolean':
        at('wrong-type', false, 'true');
        at('wrong-type', false, 0);
        break;
      case 'array': {
        at('array', true, []);
        const item = Array.isArray(field.value) ? field.value[0] : undefined;
        if (item !== undefined) {
          at('array', false, new RawJson(() => encodeJson(Array.from({ length: 10_000 }, () => item))), '10k items');
          at('array', false, [clone(item), clone(item)], 'duplicate items');
          at('array', false, [[clone(item)]], 'nested array');
        }
        at('array', false, Array.from({ length: 1000 }, () => null), '1000 nulls');
        break;
      }
      case 'object': {
        const withExtra = clone(field.value) as Record<string, unknown>;
        if (withExtra && typeof withExtra === 'object') {
          setOwn(withExtra, 'guardUnknown', 'x');
          at('object', true, withExtra, `${show(field.value)} + unknown key`);
        }
        at('object', false, {}, '{}');
        break;
      }
      case 'null':
      case 'any':
        stringCases(field, where, at);
        break;
    }
  }

  function stringCases(field: Field, where: string, at: (family: Family, essential: boolean, value: unknown, label?: string) => void): void {
    const text = typeof field.value === 'string' && field.value.length > 0 ? field.value : BASE_TEXT;
    const middle = Math.floor(text.length / 2);
    const inside = (char: string) => text.slice(0, middle) + char + text.slice(middle);
    for (const control of CONTROL) at('control-char', control.essential, inside(control.char), `${show(inside(control.char))} (${control.name})`);
    at('control-char', true, '\u0000', '"\\u0000" (NUL only)');
    at('control-char', false, `${text}\u0000`, `${show(`${text}\u0000`)} (NUL at the end)`);
    at('empty-string', true, '', '"" (empty)');
    // Oversize: padded in front, so an e-mail keeps its shape with a huge local part.
    const pad = (length: number) => 'x'.repeat(Math.max(length - text.length, 0)) + text;
    at('oversize', true, pad(10 * KB), `10 KB string`);
    const rest = Buffer.byteLength(encodeJson(withValue(jsonBody, field.path, '')));
    const big = (length: number) => new RawJson(() => JSON.stringify(pad(length)));
    at('oversize', true, big(bodyLimit - rest - 256), `string of ${size(bodyLimit - rest - 256)} (body just under the ${size(bodyLimit)} limit)`);
    at('oversize', true, big(bodyLimit - rest + KB), `string making the body ${size(bodyLimit + KB)} (over the limit)`);
    const maxLength = field.schema.maxLength;
    if (typeof maxLength === 'number' && maxLength < 100_000) {
      at('oversize', false, pad(maxLength + 1), `maxLength + 1 (${maxLength + 1} chars)`);
      at('oversize', false, '😀'.repeat(maxLength), `${maxLength} emoji (${maxLength * 2} UTF-16 units)`);
    }
    for (const id of IDS_AS_TEXT) at('id-as-text', id.essential, id.value, id.label);
    for (const odd of ODD_TEXT) at('odd-text', false, odd.value, odd.label ? `${show(odd.value)} (${odd.label})` : undefined);
  }

  // ---- the body as a whole ----
  if (hasBody) {
    const object = jsonBody && typeof jsonBody === 'object' && !Array.isArray(jsonBody) ? (jsonBody as Record<string, unknown>) : {};
    const plus = (key: string, value: unknown) => {
      const copy = clone(object);
      setOwn(copy, key, value);
      return copy;
    };
    json('extra-field', 'unknown field guardUnknown: "x"', true, plus('guardUnknown', 'x'));
    json('extra-field', 'unknown field with a NUL in its name', true, plus('guard\u0000key', 1));
    json('extra-field', 'unknown field guardUnknown: {nested}', false, plus('guardUnknown', { nested: [1, { deeper: null }] }));
    json('extra-field', 'unknown field "" (empty name)', false, plus('', 1));
    json('extra-field', 'unknown field with a 10 KB name', false, plus('k'.repeat(10 * KB), 1));
    const many = clone(object);
    for (let i = 0; i < 1000; i++) setOwn(many, `guard${i}`, i);
    json('extra-field', '1000 unknown fields', false, many);
    const firstField = valid.fields.find((field) => field.path.length === 1);
    if (firstField) {
      const name = String(firstField.path[0]);
      const text = encodeJson(object);
      raw('extra-field', `duplicate key "${name}" (second one a number)`, true, `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(name)}:12345}`);
    }

    const polluted = () => ({ guardPolluted: true });
    json('proto-key', '__proto__: {guardPolluted}', true, plus('__proto__', polluted()));
    json('proto-key', 'constructor: {prototype: {guardPolluted}}', true, plus('constructor', { prototype: polluted() }));
    json('proto-key', 'prototype: {guardPolluted}', true, plus('prototype', polluted()));
    const nestedProto = {};
    setOwn(nestedProto, '__proto__', polluted());
    if (firstField) json('proto-key', `${showPath('body', firstField.path)} = {__proto__: {guardPolluted}}`, true, withValue(jsonBody, firstField.path, nestedProto));
    const objectField = valid.fields.find((field) => field.kind === 'object');
    if (objectField) {
      const inner = clone(objectField.value) as Record<string, unknown>;
      setOwn(inner, '__proto__', polluted());
      json('proto-key', `${showPath('body', objectField.path)}.__proto__ = {guardPolluted}`, true, withValue(jsonBody, objectField.path, inner));
    }
    const shadowing = clone(object);
    for (const name of ['toString', 'valueOf', 'hasOwnProperty']) setOwn(shadowing, name, 'guard');
    json('proto-key', 'toString, valueOf, hasOwnProperty as field names', true, shadowing);
    json('proto-key', 'guardNest: {a: {constructor: {prototype: {guardPolluted}}}}', false, plus('guardNest', { a: { constructor: { prototype: polluted() } } }));
    json('proto-key', '__proto__: null', false, plus('__proto__', null));
    json('proto-key', '[{__proto__: {guardPolluted}}] as body', false, [nestedProto]);

    raw('deep-nesting', '10k nested objects', true, deepObjects(10_000));
    raw('deep-nesting', '10k nested arrays', true, deepArrays(10_000));
    json('deep-nesting', 'guardDeep: 10k nested objects', false, plus('guardDeep', new RawJson(deepObjects(10_000), '10k nested objects')));
    raw('deep-nesting', '100k nested arrays', false, () => deepArrays(100_000));
    raw('deep-nesting', '1000 nested objects', false, deepObjects(1000));

    raw('body-shape', 'null', true, 'null');
    raw('body-shape', '[]', true, '[]');
    raw('body-shape', '[valid body]', true, `[${encodeJson(jsonBody)}]`);
    raw('body-shape', '"a string"', true, '"guard"');
    raw('body-shape', '42', true, '42');
    raw('body-shape', 'true', true, 'true');
    raw('body-shape', '{}', true, '{}');
    raw('body-shape', 'unknown keys only', true, '{"guardUnknown":"x","guardOther":1}');
    raw('body-shape', '-0', false, '-0');
    raw('body-shape', '1e309', false, '1e309');

    const validText = encodeJson(jsonBody);
    raw('json-syntax', 'empty body', true, '');
    raw('json-syntax', 'whitespace body', true, ' \n\t ');
    raw('json-syntax', '{', true, '{');
    raw('json-syntax', 'valid body cut in half', true, validText.slice(0, Math.max(1, Math.floor(validText.length / 2))));
    raw('json-syntax', 'valid body + "}x"', true, `${validText}}x`);
    raw('json-syntax', 'invalid UTF-8 bytes in a string', true, Buffer.concat([Buffer.from('{"guard":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('"}')]));
    raw('json-syntax', '{"a":}', false, '{"a":}');
    raw('json-syntax', '{"a":1,}', false, '{"a":1,}');
    raw('json-syntax', "{'a':1}", false, "{'a':1}");
    raw('json-syntax', '{a:1}', false, '{a:1}');
    raw('json-syntax', 'NaN', false, 'NaN');
    raw('json-syntax', 'undefined', false, 'undefined');
    raw('json-syntax', 'BOM + valid body', false, `\ufeff${validText}`);
    raw('json-syntax', 'valid body + // comment', false, `${validText} // guard`);
    raw('json-syntax', 'a raw NUL byte', false, '\u0000');
    raw('json-syntax', 'overlong UTF-8 NUL (C0 80) in a string', false, Buffer.concat([Buffer.from('{"guard":"'), Buffer.from([0xc0, 0x80]), Buffer.from('"}')]));
    raw('json-syntax', 'valid body in UTF-16LE', false, Buffer.from(validText, 'utf16le'));
    raw('json-syntax', 'unterminated string', false, '{"guard":"abc');
    raw('json-syntax', '"\\ud800" escape in a key', false, '{"\\ud800":1}');

    raw('body-size', `valid body padded to ${size(bodyLimit + 1)} (over the limit)`, true, () => validText + ' '.repeat(Math.max(bodyLimit + 1 - Buffer.byteLength(validText), 0)));
    raw('body-size', `valid body padded to exactly ${size(bodyLimit)}`, false, () => validText + ' '.repeat(Math.max(bodyLimit - Buffer.byteLength(validText), 0)));

    for (const type of CONTENT_TYPES) {
      raw('content-type', `Content-Type: ${type.label}`, type.essential, type.body ?? validText, type.value);
    }
  } else {
    // A body where none is expected.
    raw('json-syntax', 'unexpected body: {', true, '{');
    raw('deep-nesting', 'unexpected body: 10k nested objects', true, deepObjects(10_000));
    raw('body-size', `unexpected body of ${size(bodyLimit + KB)}`, true, () => ' '.repeat(bodyLimit + KB));
    raw('content-type', 'unexpected body with Content-Type: multipart/form-data without boundary', true, 'guard', 'multipart/form-data');
    raw('content-type', 'unexpected body with Content-Type: text/plain', false, 'guard', 'text/plain');
    raw('body-shape', 'unexpected body: {"guard":1}', true, '{"guard":1}');
    raw('body-shape', 'unexpected body: {}', true, '{}');
    raw('body-shape', 'unexpected body: null', true, 'null');
    raw('body-shape', 'unexpected body: []', true, '[]');
    raw('proto-key', 'unexpected body: {"__proto__":{"guardPolluted":true}}', false, '{"__proto__":{"guardPolluted":true}}');
  }

  // ---- multipart forms ----
  if (op.body?.multipart) multipartCases();
  else if (hasBody) {
    const parts = textParts();
    build('multipart', 'a multipart form of the valid fields (JSON-only route)', false, { raw: () => multipart(parts), contentType: `multipart/form-data; boundary=${BOUNDARY}` });
  }

  function textParts(): Part[] {
    return textPartsOf(jsonBody);
  }

  function multipartCases(): void {
    const fileParts: Part[] = valid.files.map((file) => ({ name: file.name, value: file.data, filename: file.filename, contentType: file.contentType }));
    const parts = [...textParts(), ...fileParts];
    // Wrong files in place of each valid one (truncated, lying headers, other codecs...).
    for (const file of valid.files) {
      const others = parts.filter((part) => part.name !== file.name);
      for (const variant of file.variants ?? []) {
        const part: Part = { name: file.name, value: variant.data, filename: variant.filename ?? file.filename, contentType: variant.contentType ?? file.contentType };
        build('multipart', `multipart: ${file.name} = ${variant.label}`, variant.essential ?? true, { raw: () => multipart([...others, part]), contentType: `multipart/form-data; boundary=${BOUNDARY}`, attr: file.name });
      }
    }
    const form = (family: Family, label: string, essential: boolean, body: () => Buffer, type = `multipart/form-data; boundary=${BOUNDARY}`) =>
      build(family, `multipart: ${label}`, essential, { raw: body, contentType: type });
    form('multipart', 'the valid form', true, () => multipart(parts));
    const fieldNames = valid.fields.filter((field) => field.path.length === 1).map((field) => String(field.path[0]));
    for (const part of parts) {
      const others = parts.filter((other) => other !== part);
      const text = String(part.value);
      const middle = Math.floor(text.length / 2);
      const replaced = (value: Buffer | string) => [...others, { name: part.name, value }];
      form('control-char', `${part.name} with NUL`, true, () => multipart(replaced(`${text.slice(0, middle)}\u0000${text.slice(middle)}`)));
      form('control-char', `${part.name} with SOH`, true, () => multipart(replaced(`${text.slice(0, middle)}\u0001${text.slice(middle)}`)));
      form('control-char', `${part.name} with a CESU-8 lone surrogate (ED A0 80)`, false, () => multipart(replaced(Buffer.concat([Buffer.from(text), Buffer.from([0xed, 0xa0, 0x80])]))));
      form('empty-string', `${part.name} empty`, true, () => multipart(replaced('')));
      form('oversize', `${part.name} of 10 KB`, true, () => multipart(replaced('x'.repeat(10 * KB))));
      form('oversize', `${part.name} of ${size(bodyLimit + KB)}`, true, () => multipart(replaced('x'.repeat(bodyLimit + KB))));
      form('missing-field', `${part.name} missing`, false, () => multipart(others));
      form('multipart', `${part.name} twice`, false, () => multipart([...parts, { name: part.name, value: 'guard-second' }]));
    }
    form('extra-field', 'unknown text field', true, () => multipart([...parts, { name: 'guardUnknown', value: 'x' }]));
    form('proto-key', '__proto__ field', true, () => multipart([...parts, { name: '__proto__', value: 'guardPolluted' }]));
    form('proto-key', 'constructor field', true, () => multipart([...parts, { name: 'constructor', value: 'guardPolluted' }]));
    form('proto-key', 'prototype field', false, () => multipart([...parts, { name: 'prototype', value: 'guardPolluted' }]));
    form('proto-key', '__proto__[guardPolluted] field', false, () => multipart([...parts, { name: '__proto__[guardPolluted]', value: '1' }]));
    for (const name of fieldNames) {
      form('multipart', `a 1 KB non-image file as ${name}`, true, () => multipart([...parts.filter((part) => part.name !== name), { name, value: junk(KB), filename: 'guard.png', contentType: 'image/png' }]));
    }
    form('multipart', 'a file under an unknown name', true, () => multipart([...parts, { name: 'guardFile', value: junk(KB), filename: 'guard.bin', contentType: 'application/octet-stream' }]));
    const fileName = fieldNames.find((name) => /image|file|avatar|audio|photo|picture/i.test(name)) ?? fieldNames[0] ?? 'file';
    const file = (value: Buffer, filename = 'guard.png', contentType = 'image/png'): Part => ({ name: fileName, value, filename, contentType });
    const withoutFile = parts.filter((part) => part.name !== fileName);
    form('oversize', `a ${size(bodyLimit + KB)} file as ${fileName}`, true, () => multipart([...withoutFile, file(junk(bodyLimit + KB))]));
    form('oversize', `a 6 MB file as ${fileName}`, false, () => multipart([...withoutFile, file(junk(6 * KB * KB))]));
    form('multipart', `two files as ${fileName}`, true, () => multipart([...withoutFile, file(junk(KB)), file(junk(KB))]));
    form('multipart', `an empty file as ${fileName}`, false, () => multipart([...withoutFile, file(Buffer.alloc(0))]));
    form('multipart', 'a file named ../../etc/passwd%00.png', false, () => multipart([...withoutFile, file(junk(KB), '../../etc/passwd\u0000.png')]));
    form('multipart', 'a file with Content-Type text/html', false, () => multipart([...withoutFile, file(junk(KB), 'guard.html', 'text/html')]));
    form('multipart', 'boundary in the header differs from the body', true, () => multipart(parts), 'multipart/form-data; boundary=guard-other');
    form('multipart', 'no closing boundary', true, () => multipart(parts, { close: false }));
    form('multipart', 'truncated in a part header', false, () => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`));
    form('multipart', 'empty body', true, () => Buffer.alloc(0));
    const crowd = [...parts];
    for (let i = 0; i < 1000; i++) crowd.push({ name: `guard${i}`, value: String(i) });
    form('multipart', '1000 text fields', true, () => multipart(crowd));
    form('multipart', 'a part without a name', false, () => multipart([...parts, { name: '', value: 'x', disposition: 'form-data' }]));
    form('multipart', 'a part with a quote in its name', false, () => multipart([...parts, { name: '', value: 'x', disposition: 'form-data; name="gu\\"ard"' }]));
    form('multipart', 'a JSON body sent as multipart', false, () => Buffer.from(encodeJson(jsonBody)));
    form('multipart', 'a 500-char boundary', false, () => multipart(parts, { boundary: 'b'.repeat(500) }), `multipart/form-data; boundary=${'b'.repeat(500)}`);
    form('multipart', 'charset=latin1 on the form', false, () => multipart(parts), `multipart/form-data; boundary=${BOUNDARY}; charset=latin1`);
  }

  // ---- path parameters ----
  for (const param of op.params.filter((p: Param) => p.in === 'path')) {
    for (const id of PATH_IDS) {
      build('path-id', `path ${param.name} = ${id.value.length > 40 ? `${id.value.slice(0, 8)}… (${size(id.value.length)})` : JSON.stringify(id.value)}`, id.essential, {
        pathValues: { [param.name]: id.value },
      });
    }
  }

  // ---- query strings ----
  const validQuery = queryString(valid.query);
  const and = (extra: string) => (validQuery ? `${validQuery}&${extra}` : extra);
  for (const param of op.params.filter((p: Param) => p.in === 'query')) {
    const others = queryString(valid.query.filter(([name]) => name !== param.name));
    const alone = (value: string) => (others ? `${others}&${value}` : value);
    const { schema } = schemas.effective(param.schema);
    const kind = schemas.kind(schema);
    for (const value of QUERY_VALUES) {
      build('query', `?${param.name}=${value.label ?? JSON.stringify(value.value)}`, value.essential, { query: alone(`${enc(param.name)}=${encodeLoose(value.value)}`), attr: param.name });
    }
    if (kind === 'string' || kind === 'any') {
      for (const control of CONTROL) {
        build('control-char', `?${param.name}= text with ${control.name}`, control.essential, { query: alone(`${enc(param.name)}=${encodeLoose(`guard${control.char}x`)}`) });
      }
    }
    if (kind === 'enum') build('enum', `?${param.name}=GUARD_NOT_A_CHOICE`, true, { query: alone(`${enc(param.name)}=GUARD_NOT_A_CHOICE`) });
    const sample = valid.query.find(([name]) => name === param.name)?.[1] ?? '1';
    build('query', `?${param.name} repeated`, true, { query: alone(`${enc(param.name)}=${enc(sample)}&${enc(param.name)}=${enc(sample)}`) });
    build('query', `?${param.name}[]=`, true, { query: alone(`${enc(param.name)}[]=${enc(sample)}`) });
    build('query', `?${param.name}[0]= and [1]=`, false, { query: alone(`${enc(param.name)}[0]=${enc(sample)}&${enc(param.name)}[1]=2`) });
    build('query', `?${param.name} without "="`, false, { query: alone(enc(param.name)) });
    build('query', `?${param.name} missing`, false, { query: others });
  }
  const generic: { query: string; label: string; essential: boolean }[] = [
    { query: and('guardUnknown=1'), label: 'unknown parameter', essential: true },
    { query: and('guard=1&guard=2&guard=3'), label: 'repeated key', essential: true },
    { query: and('guard[]=&guard[]=1'), label: 'guard[]= array', essential: true },
    { query: and(`guard=${'x'.repeat(8 * KB)}`), label: '8 KB value', essential: true },
    { query: and(`guard=${'x'.repeat(OVER_HEADER_LIMIT)}`), label: `${size(OVER_HEADER_LIMIT)} value (over the 16 KB header limit)`, essential: true },
    { query: and('guard=%00'), label: 'NUL value (%00)', essential: true },
    { query: and('%00=1'), label: 'NUL key', essential: true },
    { query: and('guard=%'), label: 'lone "%"', essential: true },
    { query: and('guard=%zz'), label: 'bad escape %zz', essential: false },
    { query: and('guard=%ff%fe'), label: 'invalid UTF-8 %ff%fe', essential: true },
    { query: and('guard=%ed%a0%80'), label: 'encoded lone surrogate %ed%a0%80', essential: false },
    { query: and('__proto__=1'), label: '__proto__=1', essential: true },
    { query: and('__proto__[guardPolluted]=1'), label: '__proto__[guardPolluted]=1', essential: true },
    { query: and('constructor[prototype][guardPolluted]=1'), label: 'constructor[prototype][guardPolluted]=1', essential: true },
    { query: and('hasOwnProperty=1&toString=1&valueOf=1'), label: 'Object.prototype names', essential: false },
    { query: and('&&&=&=='), label: 'separators only', essential: false },
    { query: and(Array.from({ length: 1000 }, (_, i) => `g${i}=${i}`).join('&')), label: '1000 parameters', essential: false },
    { query: and('guard=1?x=2'), label: 'second "?"', essential: false },
    { query: and('guard=<>"\'`{}|\\^'), label: 'unencoded punctuation', essential: false },
    { query: and(`guard=${latin1('日本')}`), label: 'raw non-ASCII bytes', essential: false },
    { query: and('guard=a+b%20c%2Bd'), label: 'plus and space escapes', essential: false },
  ];
  for (const item of generic) build('query', `query: ${item.label}`, item.essential, { query: item.query });

  // ---- headers ----
  for (const language of ACCEPT_LANGUAGE) build('accept-language', `Accept-Language: ${language.label}`, language.essential, { headers: { 'accept-language': language.value } });

  // ---- credentials ----
  const anonymous = { credentials: false };
  build('auth', 'Authorization: Bearer guard.not.a.jwt', true, { ...anonymous, headers: { authorization: 'Bearer guard.not.a.jwt' } });
  build('auth', 'Cookie: access_token=guard', true, { ...anonymous, headers: { cookie: 'access_token=guard; XSRF-TOKEN=guard', 'x-xsrf-token': 'guard' } });
  build('auth', 'Authorization: Bearer + 8 KB', options.needsSession, { ...anonymous, headers: { authorization: `Bearer ${'x'.repeat(8 * KB)}` } });
  build('auth', 'Authorization: Bearer (no token)', options.needsSession, { ...anonymous, headers: { authorization: 'Bearer' } });
  build('auth', 'Authorization: Basic', false, { ...anonymous, headers: { authorization: 'Basic Z3VhcmQ6Z3VhcmQ=' } });
  build('auth', 'Cookie header of separators', false, { ...anonymous, headers: { cookie: ';;==;; =; access_token' } });
  build('auth', 'Cookie: access_token=%00', false, { ...anonymous, headers: { cookie: 'access_token=%00' } });
  if (options.needsSession && options.sampleBearer) {
    build('auth', 'Authorization: Bearer <valid token, one signature character changed>', true, { ...anonymous, headers: { authorization: `Bearer ${tamper(options.sampleBearer)}` } });
  }
  if (options.needsSession && unsafe) {
    build('auth', 'cookie session without X-XSRF-TOKEN', true, { xsrf: 'missing' });
    build('auth', 'cookie session with a wrong X-XSRF-TOKEN', false, { xsrf: 'wrong' });
  }

  // ---- count: essential, then optional in seeded order, then seeded random cases ----
  // The optional ones that change the body come first: a request whose body stays valid reaches
  // the handler, which for some operations costs a password hash.
  const shuffled = rng.shuffle(optionals);
  const outsideBody = (item: Case) => item.family === 'query' || item.family === 'accept-language' || item.family === 'auth';
  const chosen = [...essentials];
  for (const extra of [...shuffled.filter((item) => !outsideBody(item)), ...shuffled.filter(outsideBody)]) {
    if (chosen.length >= options.minCases - options.minRandom) break;
    chosen.push(extra);
  }
  const randomCount = Math.max(options.minRandom, options.minCases - chosen.length);
  const randomRng = rng.fork('random');
  for (let i = 0; i < randomCount; i++) randomCase(randomRng, i);
  return [...chosen, ...randoms];

  function randomCase(r: Random, index: number): void {
    const choices = ['field', 'query', 'body', 'language', 'content-type', ...(valid.fields.length ? ['field', 'field'] : []), ...(Object.keys(valid.pathValues).length ? ['path'] : [])];
    const kind = r.pick(choices);
    const tag = `#${index + 1}`;
    switch (kind) {
      case 'field': {
        const value = randomValue(r, 0);
        if (valid.fields.length && hasBody) {
          const field = r.pick(valid.fields);
          json('random', `${tag} ${showPath('body', field.path)} = ${show(value, 120)}`, false, withValue(jsonBody, field.path, value));
        } else {
          const key = r.pick(['guard', 'id', 'name', 'email', '__proto__', 'constructor', 'ids', 'x'.repeat(50)]);
          const object = {};
          setOwn(object, key, value);
          json('random', `${tag} body {${JSON.stringify(key).slice(0, 24)}: ${show(value, 120)}}`, false, object);
        }
        break;
      }
      case 'query': {
        const names = [...op.params.filter((p) => p.in === 'query').map((p) => p.name), 'guard', '__proto__', 'q', 'limit', 'offset'];
        const count = 1 + r.int(3);
        // Short enough to stay under the header limit (one fixed case goes over it).
        const pairs = Array.from({ length: count }, () => `${enc(r.pick(names))}=${encodeLoose(randomText(r).slice(0, 300))}`);
        build('random', `${tag} query ${show(pairs.join('&'), 120)}`, false, { query: and(pairs.join('&')) });
        break;
      }
      case 'body': {
        const text = randomJsonish(r);
        raw('random', `${tag} body ${show(text, 120)}`, false, text);
        break;
      }
      case 'language': {
        const parts = Array.from({ length: 1 + r.int(6) }, () => `${r.pick(['es', 'en', 'ES-es', '*', 'x-klingon', 'zh-Hant-TW', '', 'es_ES', '日本'])}${r.chance(0.5) ? `;q=${r.pick(['0', '1', '0.5', 'abc', '-1', '1e9', '', 'NaN', '0.0001'])}` : ''}`);
        const value = latin1(parts.join(r.pick([',', ', ', ';', ',,'])));
        build('random', `${tag} Accept-Language: ${show(value, 120)}`, false, { headers: { 'accept-language': value } });
        break;
      }
      case 'content-type': {
        const type = `${r.pick(['application', 'text', 'multipart', 'x', ''])}/${r.pick(['json', 'plain', 'form-data', 'x-www-form-urlencoded', 'octet-stream', '*', ''])}${r.chance(0.5) ? `; ${r.pick(['charset', 'boundary', 'q'])}=${r.pick(['utf-8', 'latin1', '', '"x"', 'ß'])}` : ''}`;
        build('random', `${tag} Content-Type: ${show(latin1(type))}`, false, { raw: hasBody ? encodeJson(jsonBody) : '{}', contentType: latin1(type) });
        break;
      }
      case 'path': {
        const name = r.pick(Object.keys(valid.pathValues));
        // Short: the fixed cases cover long ids (Fastify's maxParamLength is 100).
        const value = encodeLoose(randomText(r).slice(0, 30)) || '%20';
        build('random', `${tag} path ${name} = ${show(value, 120)}`, false, { pathValues: { [name]: value } });
        break;
      }
      default:
        throw new Error(`unknown random case kind ${kind}`);
    }
  }
}

/** Percent-encodes like encodeURIComponent, but lone surrogates go out as their CESU-8 bytes. */
function encodeLoose(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    else out += encodeURIComponent(char);
  }
  return out;
}

/**
 * The token with one character in the middle of its last segment (a JWT's signature) changed. Not
 * the last character: in base64url its low bits may be padding, and the token would stay valid.
 */
function tamper(token: string): string {
  const at = token.lastIndexOf('.') + Math.max(1, Math.floor((token.length - token.lastIndexOf('.')) / 2));
  const char = token[at] ?? 'A';
  return token.slice(0, at) + (char === 'A' ? 'B' : 'A') + token.slice(at + 1);
}

const CHAR_POOLS = [
  'abcdefghijklmnopqrstuvwxyz0123456789',
  '\u0000\u0001\u0008\u000b\u001b\u001f\u007f\u0085',
  '\ud800\udbff\udc00\udfff',
  '"\\/\'`{}[]<>%&=?#;:,.',
  'ñéßøç日本語中文العربيةעברית',
  '😀👍🏽🇪🇸',
  '\u200b\u200d\u202e\u2028\u2029\ufeff\ufffd\uffff',
  ' \t\r\n',
];

function randomText(r: Random): string {
  const length = r.pick([0, 1, 2, 5, 17, 64, 256, 1000, 5000]);
  const pools = Array.from({ length: 1 + r.int(3) }, () => r.pick(CHAR_POOLS));
  let text = '';
  while (text.length < length) {
    const pool = [...r.pick(pools)];
    text += pool[r.int(pool.length)]!;
  }
  return text;
}

function randomValue(r: Random, depth: number): unknown {
  const kind = r.int(depth > 2 ? 4 : 7);
  switch (kind) {
    case 0:
      return randomText(r);
    case 1:
      return r.pick<unknown>([0, -1, 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, 5e-324, 0.1, new RawJson('-0'), new RawJson('1e400', '1e400'), Math.floor(r.next() * 1e9) * (r.chance(0.5) ? -1 : 1), r.next() * 1e6]);
    case 2:
      return r.pick<unknown>([true, false, null]);
    case 3:
      return r.pick<unknown>(['1', 'true', 'null', 'NaN', 'Infinity', '2147483648', '', ' ', '0x1', '1e3', b64url('2147483648')]);
    case 4:
      return Array.from({ length: r.pick([0, 1, 3, 50]) }, () => randomValue(r, depth + 1));
    case 5: {
      const object: Record<string, unknown> = {};
      for (let i = 0, n = r.int(4); i < n; i++) setOwn(object, r.pick(['a', '', '__proto__', 'constructor', 'prototype', 'toString', '\u0000', 'id', randomText(r).slice(0, 20)]), randomValue(r, depth + 1));
      return object;
    }
    default:
      return new RawJson(deepArrays(r.pick([100, 1000, 5000])), 'deep arrays');
  }
}

function randomJsonish(r: Random): string {
  const tokens = ['{', '}', '[', ']', ',', ':', '"a"', '"__proto__"', '1', '-0', '1e999', 'null', 'true', ' ', '"\\u0000"', '"\\ud800"', '"', '\\', '\u0000', 'NaN', '{"a":', '[[[[', ']]]]'];
  const length = r.pick([1, 3, 10, 50, 500]);
  return Array.from({ length }, () => r.pick(tokens)).join('');
}
