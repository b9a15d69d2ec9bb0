// GET /api/status/ and GET /api/speech/tones/.
import * as z from 'zod/mini';
import { toneField } from './fields';

export const PART_STATES = ['ok', 'degraded', 'off'] as const;
const partState = z.enum(PART_STATES);

export const statusResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: partState,
  realtime: partState,
  translation: partState,
  speech: partState,
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;

export const toneOptionSchema = z.object({ value: toneField, label: z.string() });
export type ToneOption = z.infer<typeof toneOptionSchema>;
export const toneListSchema = z.array(toneOptionSchema);
