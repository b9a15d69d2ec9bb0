// Password hashes: scrypt at the configured cost (15 unless said otherwise), each hash keeping its
// own parameters so hashes of another cost still verify; a cost below 15 is for tests only.
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config';
import { DEFAULT_HASH_COST, dummyHash, hashPassword, verifyPassword } from '../src/features/accounts/passwords';

const dataDir = path.join(os.tmpdir(), 'parla-passwords-test');

describe('password hashes', () => {
  it('are scrypt with N=2^15 by default and verify only their password', async () => {
    const hash = await hashPassword('violet-harbour-42');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('violet-harbour-42', hash)).toBe(true);
    expect(await verifyPassword('violet-harbour-43', hash)).toBe(false);
    expect(DEFAULT_HASH_COST).toBe(15);
    expect(loadConfig({ DATA_DIR: dataDir }).passwordHashCost).toBe(15);
  });

  it('keep their own cost: a cheaper or dearer hash still verifies, and the dummy matches nothing', async () => {
    for (const cost of [10, 16]) {
      const hash = await hashPassword('violet-harbour-42', cost);
      expect(hash.split('$')[1]).toBe(String(2 ** cost));
      expect(await verifyPassword('violet-harbour-42', hash)).toBe(true);
    }
    const dummy = await dummyHash(10);
    expect(dummy).toBe(await dummyHash(10));
    expect(await verifyPassword('', dummy)).toBe(false);
  });

  it('refuses a cost below 15 outside tests', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', PASSWORD_HASH_COST: '12' })).toThrow(/PASSWORD_HASH_COST: below 15 only for tests/);
    expect(() => loadConfig({ DATA_DIR: dataDir, PASSWORD_HASH_COST: '12' })).toThrow(/PASSWORD_HASH_COST/);
    expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', PASSWORD_HASH_COST: '10' }).passwordHashCost).toBe(10);
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/);
  });
});
