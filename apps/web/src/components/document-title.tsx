// The tab's title names the page: its main heading (every page has one h1: "Sign in", a chat's
// title, a room's title...), then the product. Watched as the page renders, so a heading that
// arrives with its data (a chat's title) names the tab too.
import { useEffect } from 'react';

const PRODUCT = 'Parla';

/** "Heading · Parla", or "Parla" on a page without a heading yet. */
export function titleFor(heading: string | null | undefined): string {
  const text = heading?.replace(/\s+/g, ' ').trim();
  return text && text !== PRODUCT ? `${text} · ${PRODUCT}` : PRODUCT;
}

export function DocumentTitle() {
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const next = titleFor(document.querySelector('h1')?.textContent);
      if (document.title !== next) document.title = next;
    };
    const observer = new MutationObserver(() => {
      frame ||= requestAnimationFrame(update);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    update();
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}
