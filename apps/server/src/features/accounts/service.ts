// What the accounts calls do (product.md "Accounts and session"); handlers only translate HTTP.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  LoginRequest,
  PasswordChangeRequest,
  PasswordResetConfirmRequest,
  RegisterRequest,
  User,
} from '@parla/contract/accounts';
import { LIMITS, SESSION, type Language } from '@parla/contract/constants';
import type { IssuedToken, TokenService } from '../../platform/auth';
import { ApiError, fieldError, formError, tokenInvalid, validationErrors, type ErrorEntry } from '../../platform/errors';
import { translate } from '../../platform/i18n';
import type { Mailer } from '../../platform/mailer';
import type { Storage } from '../../platform/storage';
import { normaliseEmail } from '../../domain/people/users';
import type { AccountsRepository, UserRow } from './repository';
import type { PictureDecoder } from '../../platform/images';
import { toAvatarWebp } from './avatar';
import { dummyHash, hashPassword, passwordProblems, verifyPassword } from './passwords';

const ACTIVATION_LIFETIME_MS = 3 * 24 * 60 * 60_000;
const RESET_LIFETIME_MS = 24 * 60 * 60_000;
/**
 * How long the refresh token a family just rotated away from still works: two tabs refreshing
 * at once both succeed and share the new token. Later use of it is reuse and revokes the family.
 */
export const REFRESH_GRACE_MS = 20_000;
const BAD_CREDENTIALS = 'authorization';
/** The error code of a wrong current password in a password change (each try counts against its rate limit). */
export const WRONG_CURRENT_PASSWORD = 'wrong_password';

export interface SessionTokens {
  sessionId: string;
  access: IssuedToken;
  refresh: IssuedToken;
}

export interface AccountsDeps {
  repo: AccountsRepository;
  tokens: TokenService;
  mailer: Mailer;
  storage: Storage;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** scrypt's log2(N) for new password hashes (PASSWORD_HASH_COST). */
  hashCost: number;
  /** A session was ended here (refresh-token reuse): its live connections end with it. */
  sessionEnded: (sessionId: string) => void;
  /** Where avatars are decoded, within each person's budget. */
  pictures: PictureDecoder;
}

export { normaliseEmail };

/** A sign-in refused for a wrong e-mail or password (what the sign-in limits count). */
export const isBadCredentials = (error: unknown) =>
  error instanceof ApiError && error.entries.some((entry) => entry.code === BAD_CREDENTIALS);
const newKey = () => randomBytes(32).toString('base64url');
const encodeUid = (id: number) => Buffer.from(String(id)).toString('base64url');
const decodeUid = (uid: string) => {
  const id = Number(Buffer.from(uid, 'base64url').toString());
  return Number.isInteger(id) && id > 0 && id <= LIMITS.idMax ? id : undefined;
};

export function createAccountsService(deps: AccountsDeps) {
  const { repo, tokens, mailer, storage, publicUrl, log, hashCost } = deps;

  const present = (user: UserRow): User => ({
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    avatarImage: user.avatarKey ? storage.url(user.avatarKey) : null,
    readingLanguage: (user.readingLanguage ?? null) as Language | null,
  });

  /**
   * Sends in the background: the answer must not wait for SMTP, or its timing would tell a known
   * e-mail from an unknown one. A lost e-mail is logged, not fatal: resend and reset still work.
   */
  function deliver(mail: Parameters<Mailer['send']>[0]): void {
    mailer.send(mail).catch((error: unknown) => log.error({ err: error, subject: mail.subject }, 'e-mail could not be sent'));
  }

  /** An activation e-mail whose key, when used, applies `credentials` (those of its registration). */
  async function sendActivation(user: UserRow, lang: Language, credentials: { passwordHash: string; fullName: string | null }) {
    const key = newKey();
    await repo.insertEmailKey({
      userId: user.id,
      purpose: 'activation',
      keyHash: tokens.digest(key),
      expiresAt: new Date(Date.now() + ACTIVATION_LIFETIME_MS),
      ...credentials,
    });
    const link = `${publicUrl}/signup/activation/${key}`;
    deliver({
      to: user.email,
      subject: translate(lang, 'activationSubject'),
      text: translate(lang, 'activationBody', { name: credentials.fullName ?? user.email, link }),
      link,
    });
  }

  async function sendReset(user: UserRow, lang: Language) {
    const key = newKey();
    await repo.insertEmailKey({
      userId: user.id,
      purpose: 'reset',
      keyHash: tokens.digest(key),
      expiresAt: new Date(Date.now() + RESET_LIFETIME_MS),
    });
    const link = `${publicUrl}/password/reset/${encodeUid(user.id)}/${key}`;
    deliver({
      to: user.email,
      subject: translate(lang, 'resetSubject'),
      text: translate(lang, 'resetBody', { name: user.fullName ?? user.email, link }),
      link,
    });
  }

  function checkNewPassword(first: string, second: string, firstAttr: string, secondAttr: string, email?: string) {
    const problems: ErrorEntry[] = passwordProblems(first, firstAttr, email);
    if (first !== second) problems.push({ code: 'password_mismatch', message: 'passwordMismatch', attr: secondAttr });
    if (problems.length) throw validationErrors(problems);
  }

  async function startSession(userId: number): Promise<SessionTokens> {
    const sessionId = randomUUID();
    const jti = randomUUID();
    const [access, refresh] = await Promise.all([tokens.signAccess(userId, sessionId), tokens.signRefresh(userId, sessionId, jti)]);
    await repo.insertSession({ id: sessionId, userId, refreshJti: jti, refreshExpiresAt: refresh.expiresAt });
    return { sessionId, access, refresh };
  }

  return {
    present,

    /** Always the same answer whether the e-mail is new or not (no account enumeration). */
    async register(body: RegisterRequest, lang: Language): Promise<void> {
      const email = normaliseEmail(body.email);
      checkNewPassword(body.password1, body.password2, 'password1', 'password2', email);
      const passwordHash = await hashPassword(body.password1, hashCost);
      const credentials = { passwordHash, fullName: body.fullName };
      const created = await repo.insertUser({ email, ...credentials, language: lang });
      if (created) return sendActivation(created, lang, credentials);
      const existing = await repo.findUserByEmail(email);
      if (!existing) return;
      // Not yet activated: this registration gets its own key; the account row is not touched,
      // so whoever registered first cannot keep the password, and nor can whoever came second
      // unless the owner of the address follows that registration's link.
      if (!existing.emailVerified) return sendActivation(existing, lang, credentials);
      const link = `${publicUrl}/password/reset`;
      deliver({
        to: existing.email,
        subject: translate(lang, 'alreadyRegisteredSubject'),
        text: translate(lang, 'alreadyRegisteredBody', { name: existing.fullName ?? existing.email, link }),
        link,
      });
    },

    async resendActivation(emailInput: string, lang: Language): Promise<void> {
      const user = await repo.findUserByEmail(normaliseEmail(emailInput));
      if (user && !user.emailVerified) await sendActivation(user, lang, { passwordHash: user.passwordHash, fullName: user.fullName });
    },

    /** Applies the credentials of the key's registration, and ends every other key of the account. */
    async verifyEmail(key: string): Promise<void> {
      const used = await repo.consumeEmailKey('activation', tokens.digest(key));
      if (!used) {
        // A link opened twice (a mail scanner, a second click) is not a failure: the account is active.
        if (await repo.emailKeyOfActiveAccount('activation', tokens.digest(key))) throw fieldError('key', 'activationUsed', undefined, 'already_active');
        throw fieldError('key', 'activationInvalid', undefined, 'invalid_key');
      }
      await repo.updateUser(used.userId, {
        emailVerified: true,
        ...(used.passwordHash ? { passwordHash: used.passwordHash } : {}),
        ...(used.fullName ? { fullName: used.fullName } : {}),
      });
      await repo.endEmailKeys(used.userId);
    },

    async login(body: LoginRequest): Promise<SessionTokens & { user: User }> {
      const user = await repo.findUserByEmail(normaliseEmail(body.email));
      const valid = await verifyPassword(body.password, user?.passwordHash ?? (await dummyHash(hashCost)));
      if (!user || !valid) throw formError('badCredentials', BAD_CREDENTIALS);
      if (!user.emailVerified) throw formError('emailNotVerified', 'email_not_verified');
      return { ...(await startSession(user.id)), user: present(user) };
    },

    /** Rotates the refresh token; a token that was already rotated revokes its whole family. */
    async refresh(refreshToken: string): Promise<SessionTokens> {
      const claims = await tokens.verify(refreshToken, 'refresh');
      if (!claims) throw tokenInvalid();
      const session = await repo.findSession(claims.sessionId);
      if (!session || session.revokedAt || session.userId !== claims.userId) throw tokenInvalid();
      const jti = randomUUID();
      const [access, refresh] = await Promise.all([
        tokens.signAccess(claims.userId, claims.sessionId),
        tokens.signRefresh(claims.userId, claims.sessionId, jti),
      ]);
      const rotated = await repo.rotateSession(claims.sessionId, claims.jti, jti, refresh.expiresAt);
      if (!rotated) {
        // Another tab refreshed with the same token a moment ago: give this one the family's
        // current token too, instead of taking it for a replay.
        const current = await repo.findSession(claims.sessionId);
        const rotatedAt = current?.rotatedAt?.getTime() ?? 0;
        if (current && !current.revokedAt && current.previousJti === claims.jti && Date.now() - rotatedAt < REFRESH_GRACE_MS) {
          const [graceAccess, graceRefresh] = await Promise.all([
            tokens.signAccess(claims.userId, claims.sessionId),
            tokens.signRefresh(claims.userId, claims.sessionId, current.refreshJti),
          ]);
          return { sessionId: claims.sessionId, access: graceAccess, refresh: graceRefresh };
        }
        await repo.revokeSession(claims.sessionId, 'refresh token reuse');
        deps.sessionEnded(claims.sessionId);
        log.warn({ sessionId: claims.sessionId, userId: claims.userId }, 'refresh token reuse: session family revoked');
        throw tokenInvalid();
      }
      return { sessionId: claims.sessionId, access, refresh };
    },

    /** Ends the session named by any of the tokens given (its id, or undefined); unknown or expired ones are ignored. */
    async logout(candidates: (string | undefined)[]): Promise<string | undefined> {
      for (const token of candidates) {
        if (!token) continue;
        const claims = await tokens.verify(token);
        if (claims) {
          await repo.revokeSession(claims.sessionId, 'logout');
          return claims.sessionId;
        }
      }
      return undefined;
    },

    async verifyToken(token: string): Promise<void> {
      const claims = await tokens.verify(token);
      if (!claims || !(await repo.isSessionActive(claims.sessionId, claims.userId))) throw tokenInvalid();
    },

    /** Ends the other sessions and every e-mailed key, and tells the owner by e-mail. */
    async changePassword(userId: number, currentSessionId: string, body: PasswordChangeRequest, lang: Language): Promise<void> {
      const user = await repo.findUserById(userId);
      if (!user) throw tokenInvalid();
      // Whoever sits at an unlocked session must know the current password, unless they signed in
      // moments ago (and so typed it then).
      if (body.oldPassword === undefined) {
        const session = await repo.findSession(currentSessionId);
        if (!session || Date.now() - session.createdAt.getTime() > SESSION.recentSignInMs) throw fieldError('oldPassword', 'currentPasswordNeeded', undefined, 'required');
      } else if (!(await verifyPassword(body.oldPassword, user.passwordHash))) {
        throw fieldError('oldPassword', 'currentPasswordWrong', undefined, WRONG_CURRENT_PASSWORD);
      }
      checkNewPassword(body.newPassword1, body.newPassword2, 'newPassword1', 'newPassword2', user.email);
      await repo.updateUser(userId, { passwordHash: await hashPassword(body.newPassword1, hashCost) });
      await repo.revokeUserSessions(userId, 'password changed', currentSessionId);
      await repo.endEmailKeys(userId);
      const link = `${publicUrl}/password/reset`;
      deliver({
        to: user.email,
        subject: translate(lang, 'passwordChangedSubject'),
        text: translate(lang, 'passwordChangedBody', { name: user.fullName ?? user.email, link }),
        link,
      });
    },

    async requestPasswordReset(emailInput: string, lang: Language): Promise<void> {
      const user = await repo.findUserByEmail(normaliseEmail(emailInput));
      if (user) await sendReset(user, lang);
    },

    /** Returns the id of the user whose password was reset. */
    async confirmPasswordReset(body: PasswordResetConfirmRequest): Promise<number> {
      const userId = decodeUid(body.uid);
      const user = userId === undefined ? undefined : await repo.findUserById(userId);
      // The password is checked first so that a weak one does not use up the link.
      checkNewPassword(body.newPassword1, body.newPassword2, 'newPassword1', 'newPassword2', user?.email);
      if (!user) throw fieldError('token', 'resetInvalid', undefined, 'invalid_token');
      const consumed = await repo.consumeEmailKey('reset', tokens.digest(body.token), user.id);
      if (!consumed) throw fieldError('token', 'resetInvalid', undefined, 'invalid_token');
      // Following the link proves the address, so a reset also activates the account.
      await repo.updateUser(user.id, { passwordHash: await hashPassword(body.newPassword1, hashCost), emailVerified: true });
      await repo.revokeUserSessions(user.id, 'password reset');
      await repo.endEmailKeys(user.id);
      return user.id;
    },

    async getUser(userId: number): Promise<User> {
      const user = await repo.findUserById(userId);
      if (!user) throw tokenInvalid();
      return present(user);
    },

    /**
     * Profile update. `avatar`: a new image, null to remove it, undefined to keep it. The image is
     * checked and converted before anything is written.
     */
    async updateUser(userId: number, changes: { fullName?: string | undefined; readingLanguage?: Language | null | undefined; avatar?: Buffer | null | undefined }): Promise<User> {
      let user = await repo.findUserById(userId);
      if (!user) throw tokenInvalid();
      const webp = changes.avatar ? await toAvatarWebp(changes.avatar, userId, deps.pictures) : undefined;
      const values = {
        ...(changes.fullName !== undefined ? { fullName: changes.fullName } : {}),
        ...(changes.readingLanguage !== undefined ? { readingLanguage: changes.readingLanguage } : {}),
      };
      if (Object.keys(values).length) user = await repo.updateUser(userId, values);
      if (webp || changes.avatar === null) {
        const key = webp ? `avatars/${userId}-${randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '')}.webp` : null;
        if (key && webp) await storage.put(key, webp);
        // The file this update displaced (never another update's), read and replaced under a lock.
        const swapped = await repo.replaceAvatar(userId, key).catch(async (error: unknown) => {
          if (key) await storage.remove(key);
          throw error;
        });
        if (!swapped) {
          if (key) await storage.remove(key);
          throw tokenInvalid();
        }
        user = swapped.user;
        if (swapped.previous && swapped.previous !== key) {
          await storage.remove(swapped.previous).catch((error: unknown) => log.warn({ err: error }, 'old avatar not removed'));
        }
      }
      if (!user) throw tokenInvalid();
      return present(user);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
