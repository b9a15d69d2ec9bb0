// Password hashing (scrypt, memory-hard, from node:crypto) and the server's password policy.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { LIMITS } from '@parla/contract/constants';
import type { ErrorEntry } from '../../platform/errors';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/**
 * scrypt's cost as log2(N) (PASSWORD_HASH_COST): 15 is N=2^15, r=8, 32 MiB and ~50-200 ms per hash
 * on this class of machine. Each hash keeps its parameters, so a changed cost applies to new ones.
 */
export const DEFAULT_HASH_COST = 15;
/** scrypt needs 128·r·N bytes: allow twice that (N=2^15, r=8: 64 MiB). */
const maxmem = (N: number, r: number) => 256 * r * N;
const KEY_LENGTH = 32;

export async function hashPassword(password: string, cost = DEFAULT_HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const params = { N: 2 ** cost, r: 8, p: 1, maxmem: maxmem(2 ** cost, 8) };
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(Number(n), Number(r)),
  });
  return timingSafeEqual(key, expected);
}

const dummies = new Map<number, Promise<string>>();
/**
 * A hash that matches no password, at the configured cost: keeps sign-in timing equal for unknown
 * e-mails, and is the unusable password of accounts made for invitations.
 */
export function dummyHash(cost = DEFAULT_HASH_COST): Promise<string> {
  let hash = dummies.get(cost);
  if (!hash) dummies.set(cost, (hash = hashPassword(randomBytes(16).toString('hex'), cost)));
  return hash;
}

const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].slice(0, 1000));

/** The server's rules for a new password (product.md): 8..128, not among the 1,000 most common. */
export function passwordProblems(password: string, attr: string, email?: string): ErrorEntry[] {
  const problems: ErrorEntry[] = [];
  if (password.length < LIMITS.serverPasswordMin) {
    problems.push({ code: 'password_too_short', message: 'passwordTooShort', params: { min: LIMITS.serverPasswordMin }, attr });
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    problems.push({ code: 'password_too_common', message: 'passwordTooCommon', attr });
  }
  if (email && password.toLowerCase() === email.split('@')[0]?.toLowerCase()) {
    problems.push({ code: 'password_too_similar', message: 'passwordLikeEmail', attr });
  }
  return problems;
}
