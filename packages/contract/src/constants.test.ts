import { describe, expect, it } from 'vitest';
import {
  CHAT_ROLE,
  CHAT_ROLES,
  COOKIES,
  DOMAINS,
  FALLBACK_LANGUAGE,
  LANGUAGES,
  LIMITS,
  ROOM_ROLE,
  ROOM_ROLES,
  ROOM_STATE,
  ROOM_STATES,
  ROOM_STATE_TRANSITIONS,
  RTL_LANGUAGES,
  SESSION,
  STORAGE_KEYS,
  TOAST_AUTO_CLOSE_MS,
  TONES,
  TRANSLATION_NAMESPACES,
  XSRF_HEADER,
} from './constants';

// The lists exactly as spec section 3 writes them.
const SPEC_LANGUAGES =
  'af ar az be bg bs ca cs cy da de el en es et fa fi fr gl he hi hr hu hy id is it ja kk kn ko lt lv mi mk mr ms ne nl no pl pt ro ru sk sl sr sv sw ta th tl tr uk ur vi zh'.split(
    ' ',
  );
const SPEC_TONES =
  'DEFAULT, ACADEMIC, APPRECIATIVE, ANALYTICAL, CASUAL, CHEERFUL, DESCRIPTIVE, FORMAL, FRIENDLY, HUMOROUS, INFORMATIVE, INSPIRATIONAL, INTIMATE, PERSUASIVE, SERIOUS'.split(
    ', ',
  );
const SPEC_DOMAINS =
  'DEFAULT, ACCOUNTING, ART, AUTO, BUSINESS, EDUCATION, ENGINEERING, ENTERTAINMENT, ENVIRONMENT, FASHION, FINANCE, FNB, GOVERNMENT, HEALTHCARE, HOSPITALITY, IT, LAW, MANUFACTURING, MARKETING, MUSIC, NON_PROFIT, REAL_ESTATE, RETAIL, SCIENCE, SPORTS, TRANSPORT, TRAVEL'.split(
    ', ',
  );

describe('LANGUAGES', () => {
  it('holds the 57 distinct codes of the spec, in its order', () => {
    expect(LANGUAGES).toHaveLength(57);
    expect(new Set(LANGUAGES).size).toBe(57);
    expect([...LANGUAGES]).toEqual(SPEC_LANGUAGES);
  });

  it('is alphabetical and made of two-letter lowercase codes', () => {
    expect([...LANGUAGES]).toEqual([...LANGUAGES].sort());
    for (const code of LANGUAGES) expect(code).toMatch(/^[a-z]{2}$/);
  });

  it('has a fallback and right-to-left languages taken from the list', () => {
    expect(FALLBACK_LANGUAGE).toBe('en');
    expect(LANGUAGES).toContain(FALLBACK_LANGUAGE);
    expect([...RTL_LANGUAGES].sort()).toEqual(['ar', 'fa', 'he', 'ur']);
    for (const code of RTL_LANGUAGES) expect(LANGUAGES).toContain(code);
  });
});

describe('TONES', () => {
  it('holds the 15 distinct tones in spec order, DEFAULT first', () => {
    expect(TONES).toHaveLength(15);
    expect(new Set(TONES).size).toBe(15);
    expect([...TONES]).toEqual(SPEC_TONES);
    expect(TONES[0]).toBe('DEFAULT');
  });
});

describe('DOMAINS', () => {
  it('holds the 27 distinct domains in spec order, DEFAULT first', () => {
    expect(DOMAINS).toHaveLength(27);
    expect(new Set(DOMAINS).size).toBe(27);
    expect([...DOMAINS]).toEqual(SPEC_DOMAINS);
    expect(DOMAINS[0]).toBe('DEFAULT');
    expect(DOMAINS.at(-1)).toBe('TRAVEL');
  });
});

describe('roles and states', () => {
  it('uses the spec codes for room roles', () => {
    expect(ROOM_ROLE).toEqual({ OWNER: 1001, MEMBER: 1002 });
    expect([...ROOM_ROLES]).toEqual([1001, 1002]);
  });

  it('uses the spec codes for chat roles, OWNER > ADMIN > MEMBER', () => {
    expect(CHAT_ROLE).toEqual({ OWNER: 2001, ADMIN: 2002, MEMBER: 2003 });
    expect([...CHAT_ROLES]).toEqual([2001, 2002, 2003]);
  });

  it('uses the spec codes for room states', () => {
    expect(ROOM_STATE).toEqual({ START: 3001, LIVE: 3002, END: 3003 });
    expect([...ROOM_STATES]).toEqual([3001, 3002, 3003]);
  });

  it('keeps the three code ranges apart', () => {
    const all = [...ROOM_ROLES, ...CHAT_ROLES, ...ROOM_STATES];
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('ROOM_STATE_TRANSITIONS', () => {
  it('allows exactly start→live, start→end, live→end and end→live', () => {
    expect(ROOM_STATE_TRANSITIONS).toEqual({
      3001: [3002, 3003],
      3002: [3003],
      3003: [3002],
    });
  });

  it('has an entry for every state and only targets known states', () => {
    for (const state of ROOM_STATES) {
      const targets = ROOM_STATE_TRANSITIONS[state];
      expect(targets).toBeDefined();
      for (const target of targets) expect(ROOM_STATES).toContain(target);
    }
  });

  it('never stays in place and never returns to Start', () => {
    for (const state of ROOM_STATES) {
      expect(ROOM_STATE_TRANSITIONS[state]).not.toContain(state);
      expect(ROOM_STATE_TRANSITIONS[state]).not.toContain(ROOM_STATE.START);
    }
  });
});

describe('LIMITS and other constants', () => {
  it('carries the spec and product bounds', () => {
    expect(LIMITS.titleMin).toBe(1);
    expect(LIMITS.titleMax).toBe(255);
    expect(LIMITS.passwordMin).toBe(1);
    expect(LIMITS.passwordMax).toBe(128);
    expect(LIMITS.serverPasswordMin).toBe(8);
    expect(LIMITS.homeRecentRooms).toBe(5);
    expect(LIMITS.pageSizeDefault).toBe(20);
    expect(LIMITS.pageSizeMax).toBe(100);
    expect(LIMITS.avatarMaxBytes).toBe(5 * 1024 * 1024);
    expect(LIMITS.segmentAudioMaxBytes).toBe(2 * 1024 * 1024);
    expect(LIMITS.segmentAudioMaxSeconds).toBe(30);
  });

  it('keeps the bounds consistent with each other', () => {
    expect(LIMITS.pageSizeDefault).toBeLessThanOrEqual(LIMITS.pageSizeMax);
    expect(LIMITS.serverPasswordMin).toBeGreaterThan(LIMITS.passwordMin);
    expect(LIMITS.serverPasswordMin).toBeLessThan(LIMITS.passwordMax);
  });

  it('has the session timings of the product', () => {
    expect(SESSION.expiryMarginMs).toBe(5_000);
    expect(SESSION.accessLifetimeMs).toBe(300_000);
    expect(SESSION.refreshLifetimeMs).toBe(604_800_000);
  });

  it('uses axios default XSRF names and the spec storage names', () => {
    expect(COOKIES.xsrf).toBe('XSRF-TOKEN');
    expect(XSRF_HEADER).toBe('X-XSRF-TOKEN');
    expect(STORAGE_KEYS).toEqual({ lang: 'lang', tokens: 'token-storage' });
    expect([...TRANSLATION_NAMESPACES]).toEqual(['translation', 'zod', 'form']);
    expect(TOAST_AUTO_CLOSE_MS).toBe(2000);
  });
});
