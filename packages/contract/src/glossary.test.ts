import { describe, expect, it } from 'vitest';
import { glossaryEntryPatchSchema, glossaryEntryRequestSchema } from './glossary';
import { LIMITS } from './constants';

const issues = (schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('glossary entries', () => {
  it('takes a term kept as it is or with renderings, trimmed, and fills the defaults', () => {
    expect(glossaryEntryRequestSchema.parse({ term: '  standup ', language: 'en', renderings: [{ language: 'es', text: 'reunión diaria' }] })).toEqual({
      term: 'standup',
      language: 'en',
      keep: false,
      renderings: [{ language: 'es', text: 'reunión diaria' }],
    });
    expect(glossaryEntryRequestSchema.parse({ term: 'Parla', language: 'en', keep: true })).toMatchObject({ keep: true, renderings: [] });
  });

  it('refuses a blank or multi-line term, an unknown language, and two renderings for one language', () => {
    expect(issues(glossaryEntryRequestSchema, { term: '   ', language: 'en', keep: true })).toEqual(['term']);
    expect(issues(glossaryEntryRequestSchema, { term: 'a\nb', language: 'en', keep: true })).toEqual(['term']);
    expect(issues(glossaryEntryRequestSchema, { term: 'x'.repeat(LIMITS.glossaryTermMax + 1), language: 'en', keep: true })).toEqual(['term']);
    expect(issues(glossaryEntryRequestSchema, { term: 'standup', language: 'xx', keep: true })).toEqual(['language']);
    expect(issues(glossaryEntryRequestSchema, { term: 'standup', language: 'en', renderings: [{ language: 'es', text: 'a' }, { language: 'es', text: 'b' }] })).toEqual(['renderings']);
  });

  it('changes only what a patch names', () => {
    expect(glossaryEntryPatchSchema.parse({})).toEqual({});
    expect(glossaryEntryPatchSchema.parse({ keep: true })).toEqual({ keep: true });
  });
});
