// Field schemas reused by several request bodies.
import * as z from 'zod/mini';
import { DOMAINS, LANGUAGES, LIMITS, TONES, CHAT_ROLES, ROOM_ROLES, ROOM_STATES } from './constants';

export const emailField = z.email().check(z.maxLength(LIMITS.emailMax));
/** Client-side bounds of every new password (spec section 5). */
export const passwordField = z.string().check(z.minLength(LIMITS.passwordMin), z.maxLength(LIMITS.passwordMax));
export const titleField = z.string().check(z.trim(), z.minLength(LIMITS.titleMin), z.maxLength(LIMITS.titleMax));
export const descriptionField = z.optional(z.nullable(z.string().check(z.maxLength(10_000))));
export const languageField = z.enum(LANGUAGES);
export const languagesField = z.array(languageField);
export const toneField = z.enum(TONES);
export const domainField = z.enum(DOMAINS);
export const chatRoleField = z.literal(CHAT_ROLES);
export const roomRoleField = z.literal(ROOM_ROLES);
export const roomStateField = z.literal(ROOM_STATES);
/** Datetimes travel as ISO 8601 strings with an offset. */
export const dateTimeField = z.iso.datetime({ offset: true });
export const idField = z.int().check(z.positive());
/** A path id: digits only, anything else is a 404 rather than a crash. */
export const idParam = z.coerce.number().check(z.int(), z.positive());

/** A non-empty list of distinct language codes (a chat's or room's languages). */
export const languageSetField = languagesField.check(
  z.minLength(1),
  z.maxLength(LANGUAGES.length),
  z.refine((codes) => new Set(codes).size === codes.length, { message: 'Languages must be distinct.' }),
);
export const nickNameField = z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.nickNameMax));
export const aliasField = z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.aliasMax));
/** The ids of a multi-delete body: 1 to one page's worth of distinct ids. */
export const idListField = z.array(idField).check(
  z.minLength(1),
  z.maxLength(LIMITS.pageSizeMax),
  z.refine((ids) => new Set(ids).size === ids.length, { message: 'Ids must be distinct.' }),
);
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
