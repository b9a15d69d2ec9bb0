import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  AVATAR_FORMATS,
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  passwordChangeRequestSchema,
  passwordResetConfirmRequestSchema,
  passwordResetRequestSchema,
  registerRequestSchema,
  resendEmailRequestSchema,
  tokenRefreshRequestSchema,
  tokenRefreshResponseSchema,
  tokenVerifyRequestSchema,
  userSchema,
  userUpdateFieldsSchema,
  verifyEmailRequestSchema,
} from './accounts';

/** The dotted paths of the issues of a rejected input (fails the test if it parses). */
function issuePaths(schema: z.ZodMiniType, input: unknown): string[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.map(String).join('.'));
}

const user = { id: 7, email: 'ana@example.com', fullName: 'Ana Lima', avatarImage: null, readingLanguage: null };

describe('userSchema', () => {
  it('parses a user with and without full name and avatar', () => {
    expect(userSchema.parse(user)).toEqual(user);
    const withAvatar = { ...user, fullName: null, avatarImage: 'https://cdn.example.com/a.webp' };
    expect(userSchema.parse(withAvatar)).toEqual(withAvatar);
  });

  it('rejects a string id', () => {
    expect(issuePaths(userSchema, { ...user, id: '7' })).toEqual(['id']);
  });
});

describe('loginRequestSchema', () => {
  it('parses e-mail and password', () => {
    expect(loginRequestSchema.parse({ email: 'ana@example.com', password: 'secret' })).toEqual({
      email: 'ana@example.com',
      password: 'secret',
    });
  });

  it('names the field of a bad e-mail', () => {
    expect(issuePaths(loginRequestSchema, { email: 'ana', password: 'secret' })).toEqual(['email']);
  });

  it('rejects an empty or 129-character password', () => {
    expect(issuePaths(loginRequestSchema, { email: 'ana@example.com', password: '' })).toEqual([
      'password',
    ]);
    expect(
      issuePaths(loginRequestSchema, { email: 'ana@example.com', password: 'p'.repeat(129) }),
    ).toEqual(['password']);
  });

  it('reports both missing fields', () => {
    expect(issuePaths(loginRequestSchema, {}).sort()).toEqual(['email', 'password']);
  });
});

describe('loginResponseSchema', () => {
  const response = {
    access: 'a.b.c',
    refresh: 'd.e.f',
    user,
    accessExpiration: '2024-05-01T10:05:00Z',
    refreshExpiration: '2024-05-08T10:00:00+00:00',
  };

  it('parses the login answer', () => {
    expect(loginResponseSchema.parse(response)).toEqual(response);
  });

  it('rejects an expiry that is not a datetime and a broken user', () => {
    expect(issuePaths(loginResponseSchema, { ...response, accessExpiration: 300 })).toEqual([
      'accessExpiration',
    ]);
    expect(issuePaths(loginResponseSchema, { ...response, user: { ...user, email: 5 } })).toEqual([
      'user.email',
    ]);
  });
});

describe('registerRequestSchema', () => {
  const body = {
    email: 'ana@example.com',
    password1: 'correct horse',
    password2: 'correct horse',
    fullName: '  Ana Lima ',
  };

  it('parses and trims the full name', () => {
    expect(registerRequestSchema.parse(body).fullName).toBe('Ana Lima');
  });

  it('requires a full name of at least one character', () => {
    expect(issuePaths(registerRequestSchema, { ...body, fullName: '   ' })).toEqual(['fullName']);
    expect(issuePaths(registerRequestSchema, { ...body, fullName: undefined })).toEqual(['fullName']);
  });

  it('rejects a 129-character password on either field', () => {
    expect(issuePaths(registerRequestSchema, { ...body, password2: 'p'.repeat(129) })).toEqual([
      'password2',
    ]);
  });
});

describe('password calls', () => {
  it('change takes two 1..128 character passwords', () => {
    expect(passwordChangeRequestSchema.parse({ newPassword1: 'a', newPassword2: 'a' })).toEqual({
      newPassword1: 'a',
      newPassword2: 'a',
    });
    expect(
      issuePaths(passwordChangeRequestSchema, { newPassword1: 'p'.repeat(129), newPassword2: '' }).sort(),
    ).toEqual(['newPassword1', 'newPassword2']);
  });

  it('reset takes a valid e-mail', () => {
    expect(passwordResetRequestSchema.parse({ email: 'ana@example.com' }).email).toBe('ana@example.com');
    expect(issuePaths(passwordResetRequestSchema, { email: 'nope' })).toEqual(['email']);
  });

  it('reset confirm requires uid and token', () => {
    const body = { newPassword1: 'pw', newPassword2: 'pw', uid: 'MQ', token: 'abc-123' };
    expect(passwordResetConfirmRequestSchema.parse(body)).toEqual(body);
    expect(issuePaths(passwordResetConfirmRequestSchema, { ...body, uid: '' })).toEqual(['uid']);
    expect(issuePaths(passwordResetConfirmRequestSchema, { ...body, token: undefined })).toEqual([
      'token',
    ]);
  });
});

describe('registration helpers', () => {
  it('resend takes a valid e-mail', () => {
    expect(issuePaths(resendEmailRequestSchema, { email: 'a@' })).toEqual(['email']);
  });

  it('verify requires a key', () => {
    expect(verifyEmailRequestSchema.parse({ key: 'k3y' }).key).toBe('k3y');
    expect(issuePaths(verifyEmailRequestSchema, { key: '' })).toEqual(['key']);
  });
});

describe('tokens', () => {
  it('refresh and logout accept an empty body or a refresh token', () => {
    expect(tokenRefreshRequestSchema.parse(undefined)).toBeUndefined();
    expect(tokenRefreshRequestSchema.parse({})).toEqual({});
    expect(tokenRefreshRequestSchema.parse({ refresh: 'r' })).toEqual({ refresh: 'r' });
    expect(issuePaths(tokenRefreshRequestSchema, { refresh: '' })).toEqual(['refresh']);
    expect(logoutRequestSchema.parse(undefined)).toBeUndefined();
    expect(logoutRequestSchema.parse({ refresh: 'r' })).toEqual({ refresh: 'r' });
  });

  it('refresh answer carries both expiries and an optional refresh token', () => {
    const answer = {
      access: 'a',
      accessExpiration: '2024-05-01T10:05:00Z',
      refreshExpiration: '2024-05-08T10:00:00Z',
    };
    expect(tokenRefreshResponseSchema.parse(answer)).toEqual(answer);
    expect(tokenRefreshResponseSchema.parse({ ...answer, refresh: 'r2' }).refresh).toBe('r2');
    expect(issuePaths(tokenRefreshResponseSchema, { ...answer, refreshExpiration: undefined })).toEqual([
      'refreshExpiration',
    ]);
  });

  it('verify requires a token', () => {
    expect(issuePaths(tokenVerifyRequestSchema, {})).toEqual(['token']);
  });
});

describe('userUpdateFieldsSchema', () => {
  it('takes a full name and an optional avatar removal', () => {
    expect(userUpdateFieldsSchema.parse({ fullName: ' Ana ' })).toEqual({ fullName: 'Ana' });
    expect(userUpdateFieldsSchema.parse({ fullName: 'Ana', avatarImage: null }).avatarImage).toBeNull();
    expect(userUpdateFieldsSchema.parse({ fullName: 'Ana', avatarImage: '' }).avatarImage).toBe('');
  });

  it('rejects an avatar given as text and an empty name', () => {
    expect(issuePaths(userUpdateFieldsSchema, { fullName: 'Ana', avatarImage: 'x.png' })).toEqual([
      'avatarImage',
    ]);
    expect(issuePaths(userUpdateFieldsSchema, { fullName: '' })).toEqual(['fullName']);
  });

  it('lists the accepted avatar formats', () => {
    expect([...AVATAR_FORMATS]).toEqual(['png', 'jpeg', 'webp', 'gif']);
  });
});
