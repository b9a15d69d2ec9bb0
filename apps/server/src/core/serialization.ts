// Response serialization: each route's response schema (zod, from the contract) is compiled once
// to JSON Schema and then to a fast-json-stringify function, which writes only the documented
// fields and refuses a missing required one. (zod parse + JSON.stringify on every answer cost
// about 4% of a simple request.) A schema JSON Schema cannot express falls back to zod.
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import fastJson from 'fast-json-stringify';
import * as z from 'zod/mini';
import { safeEncode, type $ZodType } from 'zod/v4/core';

export const serializerCompiler: FastifySerializerCompiler<$ZodType> = ({ schema, method, url }) => {
  try {
    const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  } catch {
    return (data: unknown) => {
      const result = safeEncode(schema, data);
      if (!result.success) throw new Error(`${method} ${url}: the response does not match its schema`, { cause: result.error });
      return JSON.stringify(result.data);
    };
  }
};
