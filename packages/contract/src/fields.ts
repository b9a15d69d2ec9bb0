// Field schemas reused by several request bodies.
import * as z from 'zod/mini';
import { CHAT_ROLE, DOMAINS, LANGUAGES, LIMITS, MEMBER_STATES, ROOM_ROLE, ROOM_STATE, TONES, TONE_MEANINGS, CHAT_ROLES, ROOM_ROLES, ROOM_STATES } from './constants';

/**
 * Gives a field an example in the API description (kept with its other metadata); Swagger UI and
 * code generators build request and answer examples from these.
 */
export function withExample<T extends z.core.$ZodType>(schema: T, example: unknown): T {
  z.globalRegistry.add(schema, { ...(z.globalRegistry.get(schema) ?? {}), example } as never);
  return schema;
}

export const emailField = withExample(z.email().check(z.maxLength(LIMITS.emailMax)), 'ana@example.com');

/**
 * What stored text never holds (product.md): C0 and C1 control characters other than tab and
 * newline (U+0085 NEXT LINE included), DEL, the bidirectional embeddings, overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069: an override makes "gpj.exe" read "exe.jpg"), the byte order
 * mark U+FEFF, the interlinear annotation marks and the noncharacters U+FFFE/U+FFFF, and unpaired
 * UTF-16 surrogates. PostgreSQL refuses NUL outright; the others have no place in a name or a
 * message and would be stored mangled or shown misleading. Left-to-right and right-to-left marks
 * (U+200E, U+200F, U+061C) stay allowed: right-to-left writing needs them. Checked on code units
 * (no `u` flag), so a lone surrogate is seen as one.
 */
// eslint-disable-next-line no-control-regex
export const FORBIDDEN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** The error code of text holding FORBIDDEN_TEXT; the issue carries it in `params.code`. */
export const INVALID_CHARACTERS = 'invalid_characters';
/** The error code of a text left empty where something is needed (a message with neither words nor attachments). */
export const BLANK = 'blank';
/** The error code of a line break in a single-line field (a name, a title). */
export const SINGLE_LINE = 'single_line';

/** Line breaks other than LF (CR LF, CR, LINE and PARAGRAPH SEPARATOR), folded into LF. */
const OTHER_LINE_BREAKS = /\r\n?|[\u2028\u2029]/g;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN_TEXT.source, 'g');

/**
 * Text from outside the request (a translation, a transcript from a provider) made fit to store:
 * line breaks folded into LF, every FORBIDDEN_TEXT character removed.
 */
export function cleanText(text: string): string {
  return text.replace(OTHER_LINE_BREAKS, '\n').replace(FORBIDDEN_ALL, '');
}

/**
 * What the API description says of a text field (JSON Schema has no room for a refine): a pattern
 * that refuses the characters FORBIDDEN_TEXT names (and line breaks in a single-line field; CR is
 * allowed where it is folded into LF), and one that asks for something other than white space
 * where the field is trimmed and not empty. Lone surrogates cannot be written in a pattern.
 */
function textPattern(options: { singleLine: boolean; notBlank: boolean }): string {
  const refused = `\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\ufeff\\ufff9-\\ufffb\\ufffe\\uffff${options.singleLine ? '\\n\\r\\u2028\\u2029' : ''}`;
  return `^${options.notBlank ? '(?=[\\s\\S]*\\S)' : ''}[^${refused}]*$`;
}

/**
 * A text field of the API: line breaks folded into newlines, then no FORBIDDEN_TEXT (and no
 * newline at all when `singleLine`), optionally trimmed, `min`..`max` characters. Every free text
 * of a request goes through it.
 */
export function textField(max: number, options: { min?: number; trim?: boolean; singleLine?: boolean; example?: string } = {}) {
  const { min = 0, trim = false, singleLine = false, example } = options;
  const described = {
    ...(example === undefined ? {} : { example }),
    pattern: textPattern({ singleLine, notBlank: trim && min > 0 }),
    description: `Text${singleLine ? ' on one line' : ''}: no control characters, bidirectional overrides or byte order marks${trim ? '; white space around it is trimmed' : ''}${min > 0 ? '; not blank' : ''}.`,
  };
  return z.string().check(
    z.overwrite((value) => value.replace(OTHER_LINE_BREAKS, '\n')),
    ...(trim ? [z.trim()] : []),
    z.refine((value: string) => !FORBIDDEN_TEXT.test(value), { params: { code: INVALID_CHARACTERS } }),
    ...(singleLine ? [z.refine<string>((value) => !value.includes('\n'), { params: { code: SINGLE_LINE } })] : []),
    ...(min > 0 ? [z.minLength(min)] : []),
    z.maxLength(max),
  ).register(z.globalRegistry, described);
}
/** Client-side bounds of every new password (spec section 5). */
export const passwordField = withExample(z.string().check(z.minLength(LIMITS.passwordMin), z.maxLength(LIMITS.passwordMax)), 'violet-harbour-42');
export const titleField = textField(LIMITS.titleMax, { min: LIMITS.titleMin, trim: true, singleLine: true, example: 'Weekly planning' });
export const descriptionField = z.optional(z.nullable(textField(LIMITS.descriptionMax, { example: 'Plans for the week, read in every language.' })));
export const fullNameField = textField(LIMITS.fullNameMax, { min: 1, trim: true, singleLine: true, example: 'Ana García' });
export const languageField = z.enum(LANGUAGES).register(z.globalRegistry, { id: 'Language', example: 'es', description: 'A language code (ISO 639-1): one of the 57 languages of the interface and of translation.' });
export const languagesField = z.array(languageField);
export const toneField = z.enum(TONES).register(z.globalRegistry, {
  id: 'Tone',
  example: 'FRIENDLY',
  description: `The tone a reader reads or hears in: ${TONES.map((tone) => `${tone} (${TONE_MEANINGS[tone]})`).join(', ')}.`,
});
export const domainField = z.enum(DOMAINS).register(z.globalRegistry, { id: 'Domain', example: 'DEFAULT', description: 'The field a room is about: translations use its usual terms. DEFAULT: none in particular.' });
/** The names of numeric codes, for the API description (`x-enum-varnames`, as code generators read them). */
const named = (codes: Record<string, number>, meaning: string) => ({
  description: `${meaning} ${Object.entries(codes).map(([name, code]) => `${code} ${name}`).join(', ')}.`,
  'x-enum-varnames': Object.keys(codes),
});
export const chatRoleField = z.literal(CHAT_ROLES).register(
  z.globalRegistry,
  { id: 'ChatRole', ...named(CHAT_ROLE, 'A role in a chat: OWNER edits and deletes the chat and changes roles (setting another member to OWNER hands the chat over); ADMIN adds and removes MEMBERs; everyone reads and posts.') } as never,
);
export const roomRoleField = z.literal(ROOM_ROLES).register(
  z.globalRegistry,
  { id: 'RoomRole', ...named(ROOM_ROLE, 'A role in a room: OWNER edits the room, changes its state and manages participants (setting another to OWNER hands the room over); MEMBER speaks and listens.') } as never,
);
export const roomStateField = z.literal(ROOM_STATES).register(
  z.globalRegistry,
  { id: 'RoomState', ...named(ROOM_STATE, 'A room’s state: START before the call, LIVE during it (utterances are taken, LiveKit tokens issued), END after it. Allowed changes: START→LIVE, LIVE→END, END→LIVE, START→END.') } as never,
);
/** `invited` until the person accepts, then `joined` (MEMBER_STATES). */
export const memberStateField = z.enum(MEMBER_STATES).register(z.globalRegistry, {
  id: 'MemberState',
  description: 'invited: added, not accepted yet (sees the name and the invitation only); joined: accepted.',
});
/** Datetimes travel as ISO 8601 strings with an offset. */
export const dateTimeField = withExample(z.iso.datetime({ offset: true }), '2026-11-25T09:30:00+00:00');
/** Ids are positive int4 (product.md): anything larger can name no row. */
export const idField = withExample(z.int().check(z.minimum(1), z.maximum(LIMITS.idMax)), 42);
/** A path or query id: a number 1..2^31-1; in a path anything else is a 404 rather than a crash. */
export const idParam = z.coerce.number().check(z.int(), z.minimum(1), z.maximum(LIMITS.idMax));

/** A non-empty list of distinct language codes (a chat's or room's languages). */
export const languageSetField = z.array(languageField).check(
  z.minLength(1),
  z.maxLength(LANGUAGES.length),
  z.refine((codes) => new Set(codes).size === codes.length, { message: 'Languages must be distinct.' }),
).register(z.globalRegistry, { uniqueItems: true, example: ['en', 'es'], description: 'One or more distinct language codes; the first is the default for new members.' } as never);
export const nickNameField = textField(LIMITS.nickNameMax, { min: 1, trim: true, singleLine: true, example: 'Ana' });
export const aliasField = textField(LIMITS.aliasMax, { min: 1, trim: true, singleLine: true, example: 'Ana (design)' });
/** `?q=` of the member and participant searches. */
export const searchQueryField = textField(255, { singleLine: true });
/** The ids of a multi-delete body: 1 to one page's worth of distinct ids. */
export const idListField = z.array(idField).check(
  z.minLength(1),
  z.maxLength(LIMITS.pageSizeMax),
  z.refine((ids) => new Set(ids).size === ids.length, { message: 'Ids must be distinct.' }),
).register(z.globalRegistry, { uniqueItems: true, example: [41, 42] } as never);
/** `?limit=` of the cursor-paged lists: 1..100, default 20. */
export const limitQueryField = z._default(
  z.coerce.number().check(z.int(), z.minimum(1), z.maximum(LIMITS.pageSizeMax)),
  LIMITS.pageSizeDefault,
);
/**
 * A boolean query parameter: "true"/"1" and "false"/"0" (any case) as sent in a query string,
 * or a real boolean when a client validates its own parameters before sending them.
 * (zod/mini has no `z.preprocess`; this is the same transform-into-schema pipe.)
 */
export const queryBooleanField = z.pipe(
  z.transform((value: unknown) => {
    if (typeof value !== 'string') return value;
    const lowered = value.toLowerCase();
    if (lowered === 'true' || lowered === '1') return true;
    if (lowered === 'false' || lowered === '0') return false;
    return value;
  }),
  z.boolean(),
);

/**
 * `?everyone=` of DELETE …/messages/{id}/rendering/ and …/segments/{id}/rendering/: without it the
 * caller's own rendering is restored; with it, every reader's correction of the item is withdrawn
 * (owners and admins of a chat, the owner of a room).
 */
export const renderingRestoreQuerySchema = z.object({
  everyone: z._default(queryBooleanField, false),
});
export type RenderingRestoreQuery = z.infer<typeof renderingRestoreQuerySchema>;

/**
 * One emoji as a reaction: a pictograph (with its variation selector, skin tone and zero-width-joined
 * parts), a keycap or a flag; nothing else.
 */
export const EMOJI = /^(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}\uFE0F?\p{Emoji_Modifier}?(?:\u200D\p{Extended_Pictographic}\uFE0F?\p{Emoji_Modifier}?)*)$/u;
export const emojiField = z.string().check(
  z.minLength(1),
  z.maxLength(32),
  z.refine((value: string) => EMOJI.test(value), { message: 'One emoji.' }),
).register(z.globalRegistry, { example: '👍', description: 'One emoji (a pictograph, keycap or flag, with its modifiers).' } as never);
