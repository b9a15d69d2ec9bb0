// /api/accounts/* bodies (spec section 7, product.md "Accounts and session").
import * as z from 'zod/mini';
import { LANGUAGES, LIMITS } from './constants';
import { dateTimeField, emailField, fullNameField, idField, passwordField } from './fields';

export const userSchema = z.object({
  id: idField,
  email: z.string(),
  fullName: z.nullable(z.string()),
  avatarImage: z.nullable(z.string()),
  /** Beyond the spec: the language new chats and rooms are read in; null: the interface language. */
  readingLanguage: z.nullable(z.enum(LANGUAGES)),
});
export type User = z.infer<typeof userSchema>;

export const loginRequestSchema = z.object({
  email: emailField,
  password: z.string().check(z.minLength(1), z.maxLength(LIMITS.passwordMax)),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  access: z.string(),
  refresh: z.string(),
  user: userSchema,
  accessExpiration: dateTimeField,
  refreshExpiration: dateTimeField,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const logoutRequestSchema = z.nullish(
  z.object({ refresh: z.optional(z.string().check(z.minLength(1))) }),
);
export type LogoutRequest = z.infer<typeof logoutRequestSchema>;

export const registerRequestSchema = z.object({
  email: emailField,
  password1: passwordField,
  password2: passwordField,
  fullName: fullNameField,
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const resendEmailRequestSchema = z.object({ email: emailField });
export type ResendEmailRequest = z.infer<typeof resendEmailRequestSchema>;

export const verifyEmailRequestSchema = z.object({ key: z.string().check(z.minLength(1), z.maxLength(255)) });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

/**
 * Beyond the spec: `oldPassword`, the current password. Required unless the session signed in
 * within SESSION.recentSignInMs (someone at an unlocked session cannot take the
 * account over).
 */
export const passwordChangeRequestSchema = z.object({
  newPassword1: passwordField,
  newPassword2: passwordField,
  oldPassword: z.optional(z.string().check(z.minLength(1), z.maxLength(LIMITS.passwordMax))),
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

export const passwordResetRequestSchema = z.object({ email: emailField });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const passwordResetConfirmRequestSchema = z.object({
  newPassword1: passwordField,
  newPassword2: passwordField,
  uid: z.string().check(z.minLength(1), z.maxLength(64)),
  token: z.string().check(z.minLength(1), z.maxLength(255)),
});
export type PasswordResetConfirmRequest = z.infer<typeof passwordResetConfirmRequestSchema>;

/** Body may be empty: the client's own refresh relies on the HttpOnly cookie. */
export const tokenRefreshRequestSchema = z.nullish(
  z.object({ refresh: z.optional(z.string().check(z.minLength(1))) }),
);
export type TokenRefreshRequest = z.infer<typeof tokenRefreshRequestSchema>;

export const tokenRefreshResponseSchema = z.object({
  access: z.string(),
  accessExpiration: dateTimeField,
  refreshExpiration: dateTimeField,
  /** Present only when the refresh token came in the body. */
  refresh: z.optional(z.string()),
});
export type TokenRefreshResponse = z.infer<typeof tokenRefreshResponseSchema>;

export const tokenVerifyRequestSchema = z.object({ token: z.string().check(z.minLength(1)) });
export type TokenVerifyRequest = z.infer<typeof tokenVerifyRequestSchema>;

/**
 * Fields of PUT/PATCH /api/accounts/user/ other than the file. avatarImage travels as a
 * multipart file; sending it empty (or null in JSON) removes the avatar.
 */
export const userUpdateFieldsSchema = z.object({
  fullName: fullNameField,
  avatarImage: z.optional(z.union([z.null(), z.literal('')])),
  /** Absent: unchanged; null or empty: follow the interface language. */
  readingLanguage: z.optional(z.nullable(z.enum(['', ...LANGUAGES]))),
});
export type UserUpdateFields = z.infer<typeof userUpdateFieldsSchema>;

/**
 * GET/PATCH /api/accounts/privacy/: what others see of the person. `readReceipts` off: nobody sees
 * how far they read, and they see nobody's; `showPresence` off: they always look offline, with no
 * "last seen".
 */
export const privacySchema = z.object({
  readReceipts: z.boolean(),
  showPresence: z.boolean(),
});
export type Privacy = z.infer<typeof privacySchema>;
export const privacyPatchSchema = z.partial(privacySchema);
export type PrivacyPatch = z.infer<typeof privacyPatchSchema>;

/** Avatar formats accepted (checked by content on the server). */
export const AVATAR_FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const;
