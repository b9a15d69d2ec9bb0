// JSON Schema (as published in the server's OpenAPI document) → a valid example value, the list of
// its fields, and a JSON encoder that can also write what JSON.stringify cannot (raw number tokens
// such as -0 or 1e309, own `__proto__` keys, pre-built deep nesting).

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
}

export type Kind = 'string' | 'enum' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null' | 'any';

/**
 * Text written into the JSON as it is (a number token JSON.stringify cannot make, deep nesting...);
 * a function makes big text only when the request is sent.
 */
export class RawJson {
  readonly label: string;
  constructor(
    private readonly source: string | (() => string),
    label?: string,
  ) {
    this.label = label ?? (typeof source !== 'string' ? '(generated)' : source.length > 40 ? `${source.slice(0, 20)}… (${source.length} chars)` : source);
  }

  get text(): string {
    return typeof this.source === 'string' ? this.source : this.source();
  }
}

/** Encodes like JSON.stringify, writing RawJson as is and own `__proto__` keys like any other. */
export function encodeJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : encodeJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) parts.push(`${JSON.stringify(key)}:${encodeJson(item)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Sets an own enumerable property, `__proto__` included (plain assignment would set the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function clone<T>(value: T): T {
  if (value instanceof RawJson || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => clone(item)) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, clone((value as Record<string, unknown>)[key]));
  return copy as T;
}

export type FieldPath = (string | number)[];

export const REMOVE = Symbol('remove');

/** A copy of `root` with the value at `path` replaced (or removed with REMOVE). */
export function withValue(root: unknown, path: FieldPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = clone(root);
  let cursor = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === REMOVE) {
    if (Array.isArray(cursor)) cursor.splice(Number(last), 1);
    else delete cursor[last];
  } else if (Array.isArray(cursor)) {
    cursor[Number(last)] = value;
  } else {
    setOwn(cursor as Record<string, unknown>, String(last), value);
  }
  return copy;
}

export function showPath(prefix: string, path: FieldPath): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${key}`), prefix);
}

/** Schema helpers bound to one OpenAPI document (for `$ref`). */
export class Schemas {
  constructor(private readonly doc: unknown) {}

  resolve(schema: JsonSchema | undefined, depth = 0): JsonSchema {
    if (!schema) return {};
    if (schema.$ref && depth < 32) {
      const target = schema.$ref
        .replace(/^#\//, '')
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), this.doc);
      if (!target || typeof target !== 'object') throw new Error(`unresolvable $ref ${schema.$ref}`);
      const { $ref: _ref, ...rest } = schema;
      return this.resolve({ ...(target as JsonSchema), ...rest }, depth + 1);
    }
    return schema;
  }

  /** The schema with $ref, allOf and the nullable branch of anyOf/oneOf taken away. */
  effective(input: JsonSchema | undefined): { schema: JsonSchema; nullable: boolean } {
    let schema = this.resolve(input);
    let nullable = schema.nullable === true;
    if (schema.allOf?.length) {
      const merged: JsonSchema = { ...schema, allOf: undefined, properties: { ...schema.properties }, required: [...(schema.required ?? [])] };
      for (const part of schema.allOf) {
        const { schema: inner } = this.effective(part);
        Object.assign(merged, { ...inner, properties: { ...merged.properties, ...inner.properties } });
        merged.required = [...(merged.required ?? []), ...(inner.required ?? [])];
      }
      schema = merged;
    }
    const branches = schema.anyOf ?? schema.oneOf;
    if (branches?.length) {
      const resolved = branches.map((branch) => this.effective(branch));
      const nonNull = resolved.filter((branch) => this.kind(branch.schema) !== 'null');
      nullable ||= resolved.some((branch) => branch.nullable || this.kind(branch.schema) === 'null');
      const chosen = nonNull[0] ?? resolved[0]!;
      const { anyOf: _a, oneOf: _o, ...rest } = schema;
      return { schema: { ...rest, ...chosen.schema }, nullable: nullable || chosen.nullable };
    }
    if (Array.isArray(schema.type)) {
      nullable ||= schema.type.includes('null');
      const type = schema.type.find((t) => t !== 'null') ?? 'null';
      schema = { ...schema, type };
    }
    if (Array.isArray(schema.enum) && schema.enum.includes(null)) nullable = true;
    return { schema, nullable };
  }

  kind(schema: JsonSchema): Kind {
    if (schema.const !== undefined) return schema.const === null ? 'null' : typeof schema.const === 'string' || typeof schema.const === 'number' ? 'enum' : 'any';
    if (Array.isArray(schema.enum) && schema.enum.some((value) => value !== null)) return 'enum';
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    switch (type) {
      case 'string':
      case 'integer':
      case 'number':
      case 'boolean':
      case 'array':
      case 'object':
      case 'null':
        return type;
      default:
        if (schema.properties) return 'object';
        if (schema.items) return 'array';
        return 'any';
    }
  }

  /** The allowed values of an enum-like schema (enum or const), nulls left out. */
  choices(schema: JsonSchema): unknown[] {
    if (schema.const !== undefined) return [schema.const];
    return (schema.enum ?? []).filter((value) => value !== null);
  }

  /** A valid value; `variant` makes distinct items for arrays that need them. */
  example(input: JsonSchema | undefined, variant = 0, depth = 0): unknown {
    const { schema, nullable } = this.effective(input);
    if (depth > 12) return nullable ? null : {};
    if (schema.example !== undefined && variant === 0) return clone(schema.example);
    if (schema.examples?.length && variant === 0) return clone(schema.examples[0]);
    const kind = this.kind(schema);
    switch (kind) {
      case 'enum': {
        const choices = this.choices(schema);
        return choices[variant % choices.length];
      }
      case 'null':
        return null;
      case 'boolean':
        return typeof schema.default === 'boolean' ? schema.default : false;
      case 'integer':
      case 'number':
        return numberExample(schema, kind === 'integer', variant);
      case 'string':
        return stringExample(schema, variant);
      case 'array': {
        const items = Array.isArray(schema.items) ? schema.items : undefined;
        if (items) return items.map((item, index) => this.example(item, index, depth + 1));
        const count = Math.min(Math.max(schema.minItems ?? 1, 1), schema.maxItems ?? 1);
        return Array.from({ length: count }, (_, index) => this.example(schema.items as JsonSchema | undefined, variant + index, depth + 1));
      }
      case 'object': {
        const value: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(schema.properties ?? {})) setOwn(value, name, this.example(property, variant, depth + 1));
        return value;
      }
      case 'any':
        return schema.default !== undefined ? clone(schema.default) : BASE_TEXT;
    }
  }

  /**
   * The fields of `value` (an example of `schema`), depth first: every property and the first item
   * of every array, with the schema that describes it.
   */
  fields(schema: JsonSchema | undefined, value: unknown, path: FieldPath = [], out: Field[] = []): Field[] {
    const { schema: effective, nullable } = this.effective(schema);
    const kind = this.kind(effective);
    if (path.length > 0) out.push({ path, schema: effective, kind, nullable, value });
    if (path.length > 6) return out;
    if (kind === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, property] of Object.entries(effective.properties ?? {})) {
        if (name in value) this.fields(property, (value as Record<string, unknown>)[name], [...path, name], out);
      }
    } else if (kind === 'array' && Array.isArray(value) && value.length > 0) {
      const items = Array.isArray(effective.items) ? effective.items[0] : effective.items;
      this.fields(items, value[0], [...path, 0], out);
    }
    return out;
  }
}

export interface Field {
  path: FieldPath;
  schema: JsonSchema;
  kind: Kind;
  nullable: boolean;
  value: unknown;
}

/** The text of every valid string example: a plausible name, password (the harness's) or title. */
export const BASE_TEXT = 'violet-harbour-42';

function numberExample(schema: JsonSchema, integer: boolean, variant: number): number {
  if (typeof schema.default === 'number' && variant === 0) return schema.default;
  let low = typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (schema.exclusiveMinimum === true) low += integer ? 1 : 0.5;
  if (typeof schema.exclusiveMinimum === 'number') low = Math.max(low, schema.exclusiveMinimum + (integer ? 1 : 0.5));
  let high = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
  if (schema.exclusiveMaximum === true) high -= integer ? 1 : 0.5;
  if (typeof schema.exclusiveMaximum === 'number') high = Math.min(high, schema.exclusiveMaximum - (integer ? 1 : 0.5));
  const value = Math.min(Math.max(1, low) + variant, high);
  return integer ? Math.ceil(value) : value;
}

const FORMAT_EXAMPLES: Record<string, string> = {
  email: 'guard.example@example.com',
  'idn-email': 'guard.example@example.com',
  'date-time': '2024-05-04T10:20:30Z',
  date: '2024-05-04',
  time: '10:20:30Z',
  uri: 'https://example.com/guard',
  url: 'https://example.com/guard',
  'uri-reference': '/guard',
  uuid: '6f1c2a9e-3b7d-4c1e-9a2f-1d2e3f4a5b6c',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'example.com',
  byte: 'Z3VhcmQ=',
  base64: 'Z3VhcmQ=',
  binary: 'guard',
};

function stringExample(schema: JsonSchema, variant: number): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  let text = (schema.format && FORMAT_EXAMPLES[schema.format]) ?? (typeof schema.default === 'string' && variant === 0 ? schema.default : BASE_TEXT);
  if (schema.pattern && !schema.format) {
    const pattern = safeRegExp(schema.pattern);
    const candidates = [text, 'guard', 'a', 'A', '1', 'abc', 'ABC', 'a1', 'guard-1', 'guard_1', '2024-05-04', '2024-05-04T10:20:30Z'];
    text = candidates.find((candidate) => pattern?.test(candidate)) ?? text;
  }
  if (variant > 0) text = schema.format === 'email' ? text.replace('@', `${variant}@`) : schema.format ? text : `${text}-${variant}`;
  if (text.length < min) text = text + 'x'.repeat(min - text.length);
  if (text.length > max) text = text.slice(0, Math.max(max, 0));
  return text;
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}
