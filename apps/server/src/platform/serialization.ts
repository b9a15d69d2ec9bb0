// Response serialization: each route's response schema (zod, from the contract) is compiled once
// to JSON Schema and then to a fast-json-stringify function, which writes only the documented
// fields and refuses a missing required one. (zod parse + JSON.stringify on every answer cost
// about 4% of a simple request.) A schema JSON Schema cannot express falls back to zod.
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import fastJson from 'fast-json-stringify';
import * as z from 'zod/mini';
import { safeEncode, type $ZodType } from 'zod/v4/core';

type JsonSchema = Record<string, unknown>;

const isNullSchema = (schema: unknown) => !!schema && typeof schema === 'object' && (schema as JsonSchema)['type'] === 'null' && Object.keys(schema).length === 1;

/**
 * zod writes a nullable object or array (`z.nullable(z.object(...))`) as `anyOf: [{...}, {type:
 * 'null'}]`. fast-json-stringify picks an anyOf branch by validating the value against each
 * option with ajv on every call (every pattern and enum of the object, for each message of a page):
 * that made it slower than JSON.stringify. The same schema as `nullable: true` (which
 * fast-json-stringify reads) writes null or the object directly, with the same fields.
 */
export function nullableForSerializer(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableForSerializer);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = nullableForSerializer(value);
  const options = out['anyOf'];
  if (Array.isArray(options) && options.length === 2) {
    const nullAt = options.findIndex(isNullSchema);
    const other = options[1 - nullAt] as JsonSchema | undefined;
    if (nullAt >= 0 && other && (other['type'] === 'object' || other['type'] === 'array') && other['nullable'] === undefined) {
      const { anyOf: _anyOf, ...siblings } = out;
      return { ...siblings, ...other, nullable: true };
    }
  }
  return out;
}

export const serializerCompiler: FastifySerializerCompiler<$ZodType> = ({ schema, method, url }) => {
  try {
    const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(nullableForSerializer(jsonSchema) as Parameters<typeof fastJson>[0]);
  } catch {
    return (data: unknown) => {
      const result = safeEncode(schema, data);
      if (!result.success) throw new Error(`${method} ${url}: the response does not match its schema`, { cause: result.error });
      return JSON.stringify(result.data);
    };
  }
};
