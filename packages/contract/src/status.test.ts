import { describe, expect, it } from 'vitest';
import { TONES } from './constants';
import { PART_STATES, statusResponseSchema, toneListSchema, toneOptionSchema } from './status';

describe('statusResponseSchema', () => {
  const status = {
    status: 'ok',
    version: '0.1.0',
    database: 'ok',
    realtime: 'ok',
    translation: 'degraded',
    speech: 'off',
  };

  it('parses the status answer', () => {
    expect(statusResponseSchema.parse(status)).toEqual(status);
    expect(statusResponseSchema.parse({ ...status, status: 'degraded' }).status).toBe('degraded');
  });

  it('rejects an unknown part state and names the part', () => {
    const result = statusResponseSchema.safeParse({ ...status, database: 'down' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['database']]);
  });

  it('lists the part states', () => {
    expect([...PART_STATES]).toEqual(['ok', 'degraded', 'off']);
  });
});

describe('toneListSchema', () => {
  it('parses [{value, label}] for every tone', () => {
    const list = TONES.map((value) => ({ value, label: value.toLowerCase() }));
    expect(toneListSchema.parse(list)).toHaveLength(15);
  });

  it('rejects an unknown tone value', () => {
    const result = toneOptionSchema.safeParse({ value: 'ANGRY', label: 'Angry' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['value']);
  });
});
