// The tab's title names the page: its main heading (every page has one h1: "Sign in", a chat's
// title, a room's title...), then the product. Watched as the page renders, so a heading that
// arrives with its data (a chat's title) names the tab too.
import { useEffect } from 'react';

const PRODUCT = 'Parla';

/** "Heading · Parla", or "Parla" on a page without a heading yet; "(3) " first with 3 unread messages. */
export function titleFor(heading: string | null | undefined, unread = 0): string {
  const text = heading?.replace(/\s+/g, ' ').trim();
  const title = text && text !== PRODUCT ? `${text} · ${PRODUCT}` : PRODUCT;
  return unread > 0 ? `(${unread > 99 ? '99+' : unread}) ${title}` : title;
}

/** Unread messages over all chats, set by the signed-in pages' chrome (0 when signed out). */
let unreadCount = 0;
let refresh: () => void = () => undefined;
export function setTitleUnread(count: number) {
  if (count === unreadCount) return;
  unreadCount = count;
  refresh();
}

export function DocumentTitle() {
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const next = titleFor(document.querySelector('h1')?.textContent, unreadCount);
      if (document.title !== next) document.title = next;
    };
    const observer = new MutationObserver(() => {
      frame ||= requestAnimationFrame(update);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    refresh = update;
    update();
    return () => {
      refresh = () => undefined;
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}
