import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  aliasField,
  chatRoleField,
  dateTimeField,
  descriptionField,
  domainField,
  emailField,
  fullNameField,
  idField,
  idListField,
  idParam,
  languageField,
  languageSetField,
  limitQueryField,
  nickNameField,
  passwordField,
  queryBooleanField,
  roomRoleField,
  roomStateField,
  searchQueryField,
  textField,
  INVALID_CHARACTERS,
  SINGLE_LINE,
  cleanText,
  titleField,
  toneField,
} from './fields';
import { LANGUAGES, LIMITS } from './constants';

const fails = (schema: z.ZodMiniType, input: unknown) => !schema.safeParse(input).success;

describe('emailField', () => {
  it('accepts an address and rejects anything else', () => {
    expect(emailField.parse('ana@example.com')).toBe('ana@example.com');
    expect(fails(emailField, 'not-an-email')).toBe(true);
    expect(fails(emailField, 'ana@')).toBe(true);
    expect(fails(emailField, 42)).toBe(true);
  });

  it('rejects an address longer than 254 characters', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    expect(long.length).toBeGreaterThan(254);
    expect(fails(emailField, long)).toBe(true);
  });
});

describe('passwordField', () => {
  it('takes 1 to 128 characters', () => {
    expect(passwordField.parse('x')).toBe('x');
    expect(passwordField.parse('p'.repeat(128))).toHaveLength(128);
    expect(fails(passwordField, '')).toBe(true);
    expect(fails(passwordField, 'p'.repeat(129))).toBe(true);
  });
});

describe('titleField', () => {
  it('trims and takes 1 to 255 characters', () => {
    expect(titleField.parse('  Team  ')).toBe('Team');
    expect(titleField.parse('t'.repeat(255))).toHaveLength(255);
    expect(fails(titleField, 't'.repeat(256))).toBe(true);
    expect(fails(titleField, '')).toBe(true);
    expect(fails(titleField, '   ')).toBe(true);
  });
});

describe('descriptionField', () => {
  it('is optional or null', () => {
    expect(descriptionField.parse(undefined)).toBeUndefined();
    expect(descriptionField.parse(null)).toBeNull();
    expect(descriptionField.parse('About us')).toBe('About us');
    expect(fails(descriptionField, 5)).toBe(true);
  });
});

describe('enum fields', () => {
  it('accept only listed languages, tones and domains', () => {
    expect(languageField.parse('de')).toBe('de');
    expect(fails(languageField, 'xx')).toBe(true);
    expect(fails(languageField, 'EN')).toBe(true);
    expect(toneField.parse('FORMAL')).toBe('FORMAL');
    expect(fails(toneField, 'ANGRY')).toBe(true);
    expect(domainField.parse('NON_PROFIT')).toBe('NON_PROFIT');
    expect(fails(domainField, 'SPACE')).toBe(true);
  });

  it('accept only the role and state codes of the spec', () => {
    for (const code of [2001, 2002, 2003]) expect(chatRoleField.parse(code)).toBe(code);
    expect(fails(chatRoleField, 2004)).toBe(true);
    expect(fails(chatRoleField, '2001')).toBe(true);
    expect(fails(chatRoleField, 1001)).toBe(true);
    for (const code of [1001, 1002]) expect(roomRoleField.parse(code)).toBe(code);
    expect(fails(roomRoleField, 1003)).toBe(true);
    for (const code of [3001, 3002, 3003]) expect(roomStateField.parse(code)).toBe(code);
    expect(fails(roomStateField, 3004)).toBe(true);
  });
});

describe('languageSetField', () => {
  it('takes a non-empty list of distinct languages', () => {
    expect(languageSetField.parse(['en', 'fr'])).toEqual(['en', 'fr']);
    expect(languageSetField.parse([...LANGUAGES])).toHaveLength(57);
    expect(fails(languageSetField, [])).toBe(true);
    expect(fails(languageSetField, ['en', 'en'])).toBe(true);
    expect(fails(languageSetField, ['en', 'klingon'])).toBe(true);
  });
});

describe('nickNameField and aliasField', () => {
  it('trim and take 1 to 255 characters', () => {
    for (const field of [nickNameField, aliasField]) {
      expect(field.parse(' Ana ')).toBe('Ana');
      expect(fails(field, '  ')).toBe(true);
      expect(fails(field, 'n'.repeat(256))).toBe(true);
    }
  });
});

describe('dateTimeField', () => {
  it('takes ISO 8601 datetimes with Z or an offset', () => {
    expect(dateTimeField.parse('2024-05-01T10:00:00Z')).toBe('2024-05-01T10:00:00Z');
    expect(dateTimeField.parse('2024-05-01T10:00:00.123+02:00')).toBe('2024-05-01T10:00:00.123+02:00');
    expect(fails(dateTimeField, '2024-05-01')).toBe(true);
    expect(fails(dateTimeField, 'yesterday')).toBe(true);
  });
});

describe('ids', () => {
  it('idField takes positive integers only', () => {
    expect(idField.parse(1)).toBe(1);
    expect(fails(idField, 0)).toBe(true);
    expect(fails(idField, -3)).toBe(true);
    expect(fails(idField, 1.5)).toBe(true);
    expect(fails(idField, '1')).toBe(true);
  });

  it('idParam coerces path strings', () => {
    expect(idParam.parse('42')).toBe(42);
    expect(fails(idParam, 'abc')).toBe(true);
    expect(fails(idParam, '0')).toBe(true);
    expect(fails(idParam, '1.5')).toBe(true);
  });

  it('idListField takes 1 to 100 distinct ids', () => {
    expect(idListField.parse([3, 1, 2])).toEqual([3, 1, 2]);
    expect(fails(idListField, [])).toBe(true);
    expect(fails(idListField, [1, 1])).toBe(true);
    expect(fails(idListField, [1, -1])).toBe(true);
    expect(idListField.parse(Array.from({ length: 100 }, (_, i) => i + 1))).toHaveLength(100);
    expect(fails(idListField, Array.from({ length: 101 }, (_, i) => i + 1))).toBe(true);
  });
});

describe('limitQueryField', () => {
  it('coerces, defaults to 20 and stays within 1..100', () => {
    expect(limitQueryField.parse('20')).toBe(20);
    expect(limitQueryField.parse(undefined)).toBe(20);
    expect(limitQueryField.parse('100')).toBe(100);
    expect(fails(limitQueryField, '0')).toBe(true);
    expect(fails(limitQueryField, '101')).toBe(true);
    expect(fails(limitQueryField, 'ten')).toBe(true);
  });
});

describe('queryBooleanField', () => {
  it('reads query-string booleans and real booleans', () => {
    expect(queryBooleanField.parse('true')).toBe(true);
    expect(queryBooleanField.parse('True')).toBe(true);
    expect(queryBooleanField.parse('1')).toBe(true);
    expect(queryBooleanField.parse('false')).toBe(false);
    expect(queryBooleanField.parse('0')).toBe(false);
    expect(queryBooleanField.parse(true)).toBe(true);
    expect(queryBooleanField.parse(false)).toBe(false);
  });

  it('rejects other words', () => {
    expect(fails(queryBooleanField, 'yes')).toBe(true);
    expect(fails(queryBooleanField, '')).toBe(true);
    expect(fails(queryBooleanField, 2)).toBe(true);
  });
});

describe('textField', () => {
  const field = textField(20, { min: 1, trim: true });
  const codeOf = (input: unknown) => {
    const result = field.safeParse(input);
    return result.success ? undefined : result.error.issues.map((issue) => (issue.code === 'custom' ? issue.params?.['code'] : issue.code));
  };

  it('refuses NUL, other control characters, DEL and lone surrogates with invalid_characters', () => {
    for (const bad of ['a\u0000b', '\u0001', 'x\u001by', 'del\u007f', 'half \ud800 pair', '\udc00 low', 'bell\u0007']) {
      expect(codeOf(bad)).toContain(INVALID_CHARACTERS);
    }
  });

  it('refuses C1 controls, bidirectional overrides and isolates, the BOM and noncharacters', () => {
    for (const bad of ['next\u0085line', 'csi\u009b', 'file\u202Egpj.exe', 'embed\u202Ax', 'isolate\u2066x\u2069', 'b\ufeffom', 'non\uffff', 'anno\ufff9x']) {
      expect(codeOf(bad), JSON.stringify(bad)).toContain(INVALID_CHARACTERS);
    }
    // Marks that right-to-left writing needs stay allowed.
    expect(field.parse('abc \u200f\u200e\u061c')).toBe('abc \u200f\u200e\u061c');
  });

  it('keeps a single-line field on one line', () => {
    const name = textField(50, { min: 1, trim: true, singleLine: true });
    for (const bad of ['Ada\nBob: forged line', 'a\r\nb', 'a\rb', 'a\u2028b', 'a\u2029b']) {
      const result = name.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues.map((issue) => (issue as { params?: Record<string, unknown> }).params?.['code'])).toContain(SINGLE_LINE);
    }
    // A line break at either end is trimmed away, not refused.
    expect(name.parse('Ada\n')).toBe('Ada');
    for (const schema of [titleField, fullNameField, nickNameField, aliasField, searchQueryField]) expect(fails(schema, 'one\ntwo')).toBe(true);
    expect(descriptionField.parse('one\ntwo')).toBe('one\ntwo');
  });

  it('cleans text from providers: forbidden characters removed, line breaks folded', () => {
    expect(cleanText('Hola\u202E mundo\u0085\ufeff\r\nadiós\u2028fin\u0000')).toBe('Hola mundo\nadiós\nfin');
    expect(cleanText('plain text, 👋')).toBe('plain text, 👋');
  });

  it('keeps tabs, newlines, emoji and any script; folds carriage returns into newlines', () => {
    expect(field.parse('a\tb\nc')).toBe('a\tb\nc');
    expect(field.parse('a\r\nb\rc\u2028d\u2029e')).toBe('a\nb\nc\nd\ne');
    expect(field.parse('héllo 👋 مرحبا')).toBe('héllo 👋 مرحبا');
  });

  it('trims and bounds the length', () => {
    expect(field.parse('  x  ')).toBe('x');
    expect(codeOf('   ')).toEqual(['too_small']);
    expect(codeOf('x'.repeat(21))).toEqual(['too_big']);
  });

  it('is what every free-text field of the contract is made of', () => {
    for (const schema of [titleField, fullNameField, nickNameField, aliasField, searchQueryField]) {
      expect(fails(schema, 'a\u0000b')).toBe(true);
    }
    expect(fails(descriptionField, 'About\u0000us')).toBe(true);
  });
});

describe('id bounds', () => {
  it('ids stop at the int4 maximum', () => {
    expect(idField.parse(LIMITS.idMax)).toBe(LIMITS.idMax);
    expect(fails(idField, LIMITS.idMax + 1)).toBe(true);
    expect(idParam.parse(String(LIMITS.idMax))).toBe(LIMITS.idMax);
    expect(fails(idParam, '2147483648')).toBe(true);
    expect(fails(idParam, '99999999999999999999')).toBe(true);
    expect(fails(idListField, [1, LIMITS.idMax + 1])).toBe(true);
  });
});
