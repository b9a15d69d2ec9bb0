// A message's markup as React elements: links only to http(s) and mailto, code and mentions
// rendered, and no HTML from the text ever.
import { cleanup, render } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import english from '../public/locales/en/translation.json';
import { MessageText } from '../src/features/chats/message-text';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: english } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

const show = (text: string, meId?: number) =>
  render(
    <I18nextProvider i18n={i18n}>
      <MessageText text={text} mentions={[{ id: 12, nickName: 'Ana' }, { id: 7, nickName: 'Me' }]} meId={meId} />
    </I18nextProvider>,
  ).container;

describe('MessageText', () => {
  it('links http, https and mailto addresses, opened apart', () => {
    const view = show('See https://example.org/a?b=1, http://x.test or mailto:ana@example.org.');
    const links = [...view.querySelectorAll('a')];
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['https://example.org/a?b=1', 'http://x.test/', 'mailto:ana@example.org']);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
    expect(view.textContent).toBe('See https://example.org/a?b=1, http://x.test or mailto:ana@example.org.');
  });

  it('never makes a link of javascript:, data: or other schemes', () => {
    const view = show('javascript:alert(1) JavaScript://x%0Aalert(1) data:text/html,<b>x</b> vbscript:x ftp://x.org');
    expect(view.querySelectorAll('a')).toHaveLength(0);
    expect(view.textContent).toContain('javascript:alert(1)');
  });

  it('shows HTML in the text as text', () => {
    const view = show('<img src=x onerror="alert(1)"> <script>alert(2)</script> <b>bold?</b>');
    expect(view.querySelector('img')).toBeNull();
    expect(view.querySelector('script')).toBeNull();
    expect(view.querySelector('b')).toBeNull();
    expect(view.textContent).toBe('<img src=x onerror="alert(1)"> <script>alert(2)</script> <b>bold?</b>');
  });

  it('renders code, code blocks, bold and italic', () => {
    const view = show('Run `npm test` *now* and _then_:\n```\nconst a = 1;\n<b>not html</b>\n```');
    expect(view.querySelector('code.inline-code')?.textContent).toBe('npm test');
    expect(view.querySelector('strong')?.textContent).toBe('now');
    expect(view.querySelector('em')?.textContent).toBe('then');
    expect(view.querySelector('pre > code')?.textContent).toBe('const a = 1;\n<b>not html</b>');
    expect(view.querySelector('pre b')).toBeNull();
  });

  it('shows mentions by name, the reader’s own marked, a former member as such', () => {
    const view = show('Hi <@12>, <@7> and <@99>', 7);
    const mentions = [...view.querySelectorAll('.mention')];
    expect(mentions.map((mention) => mention.textContent)).toEqual(['@Ana', '@Me (you)', '@former member']);
    expect(mentions[0]?.classList.contains('mention-me')).toBe(false);
    expect(mentions[1]?.classList.contains('mention-me')).toBe(true);
    expect(mentions[1]?.querySelector('.visually-hidden')?.textContent).toBe(' (you)');
  });
});
