// Mentions as written in the composer and the editor (`@Ana`) and as stored (`<@12>`).
import { describe, expect, it } from 'vitest';
import { decodeMentions, encodeMentions, insertMention, mentionQueryAt, mentionsMember, namesInText, plainWithNames } from '../src/features/chats/mentions';

const ana = { id: 12, nickName: 'Ana' };
const anaMaria = { id: 13, nickName: 'Ana María' };
const ben = { id: 14, nickName: 'Ben (NYC)' };

describe('encodeMentions', () => {
  it('writes each remembered @Name as a reference, longest names first', () => {
    expect(encodeMentions('@Ana and @Ana María, see @Ben (NYC)!', [ana, anaMaria, ben])).toBe('<@12> and <@13>, see <@14>!');
    expect(encodeMentions('@Ana María', [anaMaria, ana])).toBe('<@13>');
  });

  it('takes only names standing on their own', () => {
    // An e-mail address, a longer word, a name never picked.
    expect(encodeMentions('ana@Ana.com @Anabel @Zoe @Ana.', [ana])).toBe('ana@Ana.com @Anabel @Zoe <@12>.');
    expect(encodeMentions('(@Ana)', [ana])).toBe('(<@12>)');
  });

  it('leaves code, links and stored mentions as they are', () => {
    expect(encodeMentions('`@Ana` ```\n@Ana\n``` https://x.org/@Ana @Ana <@12>', [ana])).toBe('`@Ana` ```\n@Ana\n``` https://x.org/@Ana <@12> <@12>');
  });

  it('without names, or with names that are not in the text, changes nothing', () => {
    expect(encodeMentions('hello @Ana', [])).toBe('hello @Ana');
    expect(namesInText('hello @Ana María', [ana, anaMaria, ben])).toEqual([ana, anaMaria]);
  });
});

describe('decodeMentions', () => {
  it('shows references by their current names, a former member as plain text', () => {
    expect(decodeMentions('Hi <@12> and <@99>, `<@12>`', [ana], 'former member')).toBe('Hi @Ana and @former member, `<@12>`');
  });

  it('goes back and forth', () => {
    const stored = 'Ask <@13>, not <@12> *now*';
    expect(encodeMentions(decodeMentions(stored, [ana, anaMaria], 'x'), [ana, anaMaria])).toBe(stored);
  });
});

describe('the mention being typed', () => {
  it('is an @ after a space or the start, followed by letters, up to the caret', () => {
    expect(mentionQueryAt('@An', 3)).toEqual({ start: 0, query: 'An' });
    expect(mentionQueryAt('hi @Ma rest', 6)).toEqual({ start: 3, query: 'Ma' });
    expect(mentionQueryAt('hi (@Zoë', 8)).toEqual({ start: 4, query: 'Zoë' });
  });

  it('is not an e-mail address, a lone @, digits or words after a space', () => {
    expect(mentionQueryAt('ana@ex', 6)).toBeNull();
    expect(mentionQueryAt('hi @', 4)).toBeNull();
    expect(mentionQueryAt('@12', 3)).toBeNull();
    expect(mentionQueryAt('@Ana hello', 10)).toBeNull();
    expect(mentionQueryAt('<@12', 4)).toBeNull();
  });

  it('is replaced by the picked name and a space, the caret after them', () => {
    expect(insertMention('hi @An', 3, 6, 'Ana María')).toEqual({ text: 'hi @Ana María ', caret: 14 });
    expect(insertMention('@An how', 0, 3, 'Ana')).toEqual({ text: '@Ana how', caret: 5 });
  });
});

describe('plain text', () => {
  it('names mentions for previews and announcements', () => {
    expect(plainWithNames('*Hi* <@12>, <@99>!', [ana], 'former member')).toBe('Hi @Ana, @former member!');
    expect(mentionsMember('Hi <@12>', 12)).toBe(true);
    expect(mentionsMember('Hi <@12>', 13)).toBe(false);
    expect(mentionsMember('Hi <@12>', undefined)).toBe(false);
  });
});
