// A glossary per chat and per room (issue 19): terms in one language that translation must render
// as required in some languages, or keep as they are. Edited by a chat's OWNER and ADMINs (a
// room's OWNER), read by every member. Members' names are protected without an entry.
import * as z from 'zod/mini';
import { LIMITS } from './constants';
import { dateTimeField, idField, idParam, languageField, textField } from './fields';

const termField = textField(LIMITS.glossaryTermMax, { min: 1, trim: true, singleLine: true, example: 'standup' });

export const glossaryRenderingSchema = z.object({
  language: languageField,
  text: textField(LIMITS.glossaryTermMax, { min: 1, trim: true, singleLine: true, example: 'reunión diaria' }),
});
export type GlossaryRendering = z.infer<typeof glossaryRenderingSchema>;

const renderingsField = z.array(glossaryRenderingSchema).check(
  z.maxLength(60),
  z.refine((items) => new Set(items.map((item) => item.language)).size === items.length, { params: { code: 'unique' } }),
);

/** PATCH …/glossary/{id}/: what changes (a field left out stays as it is). */
export const glossaryEntryPatchSchema = z.object({
  term: z.optional(termField),
  /** The language the term is written in (the messages it is found in). */
  language: z.optional(languageField),
  /** Never translated (a name, a product): in every language that has no rendering below. */
  keep: z.optional(z.boolean()),
  /** The rendering required in a language (one per language). */
  renderings: z.optional(renderingsField),
});
export type GlossaryEntryPatch = z.infer<typeof glossaryEntryPatchSchema>;

/** POST …/glossary/: a term, kept as is and/or with required renderings. */
export const glossaryEntryRequestSchema = z.object({
  term: termField,
  language: languageField,
  keep: z._default(z.boolean(), false),
  renderings: z._default(renderingsField, []),
});
export type GlossaryEntryRequest = z.infer<typeof glossaryEntryRequestSchema>;

export const glossaryEntrySchema = z.object({
  id: idField,
  term: z.string(),
  language: languageField,
  keep: z.boolean(),
  renderings: z.array(z.object({ language: languageField, text: z.string() })),
  created: dateTimeField,
  modified: dateTimeField,
});
export type GlossaryEntry = z.infer<typeof glossaryEntrySchema>;

/** GET …/glossary/: the entries, and the names protected without one (the members'). */
export const glossarySchema = z.object({
  entries: z.array(glossaryEntrySchema),
  /** Members' nicknames, aliases and full names: never translated. */
  names: z.array(z.string()),
  /** Whether the reader may add, change and remove entries. */
  mayEdit: z.boolean(),
});
export type Glossary = z.infer<typeof glossarySchema>;

/** /chat/{groupChatId}/glossary/{id}/ */
export const chatGlossaryItemPathSchema = z.object({ groupChatId: idParam, id: idParam });
/** /rooms/{roomId}/glossary/{id}/ */
export const roomGlossaryItemPathSchema = z.object({ roomId: idParam, id: idParam });

/**
 * POST …/glossary/apply/: the recent messages (or utterances) holding a term or name of the
 * glossary, at most LIMITS.glossaryApplyRecent of the newest, translated again; corrected
 * renderings are left as readers made them.
 */
export const glossaryApplySchema = z.object({
  /** How many messages (utterances) are being translated again. */
  queued: z.int().check(z.nonnegative()),
});
export type GlossaryApply = z.infer<typeof glossaryApplySchema>;
