// Where the message list's view stays: at the bottom while the reader is there (a message sent or
// arriving, a translation coming in, the screen fitted again), on the same messages when older
// ones come in above, and away from the bottom while a message is brought into view. New messages
// below a reader who scrolled up raise `unseen` (the "new messages" button).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { itemKey, type TimelineItem } from './timeline';

/** Within this distance of the bottom the view counts as "at the newest message". */
const BOTTOM_SLACK_PX = 48;

/** `pending`: the first page is still loading (the scroller is not the list's yet). */
export function useScrollAnchor(items: readonly TimelineItem[], pending: boolean) {
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const fromBottom = useRef(0);
  /** Where we last put the view at the bottom: a lower scrollTop since is the reader's own scroll (its event may not have come yet). */
  const pinnedTop = useRef(0);
  const [atBottom, setAtBottom] = useState(true);
  const [unseen, setUnseen] = useState(false);
  const previous = useRef({ first: '', last: '' });
  /**
   * A message being brought into view (a search result, a quote): the scroll on its way passes
   * near the bottom, and taking that for "the reader is at the bottom" let the next resize (a
   * translation arriving) pull the view down again, away from it (issue 37). Until the scroll ends
   * (or a moment passes), the view does not stick to the bottom.
   */
  const bringingIntoView = useRef(false);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    fromBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (bringingIntoView.current) return;
    stick.current = fromBottom.current <= BOTTOM_SLACK_PX;
    if (stick.current) pinnedTop.current = element.scrollTop;
    setAtBottom(stick.current);
    if (stick.current) setUnseen(false);
  };

  const scrollToBottom = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    pinnedTop.current = element.scrollTop;
    stick.current = true;
    fromBottom.current = 0;
    setAtBottom(true);
    setUnseen(false);
  }, []);

  const first = itemKey(items[0]);
  const last = itemKey(items.at(-1));
  const lastIsMine = (() => {
    const item = items.at(-1);
    return !!item && (item.kind === 'outbox' || item.message.isMe);
  })();

  useLayoutEffect(() => {
    const element = scroller.current;
    const before = previous.current;
    previous.current = { first, last };
    if (!element) return;
    const appended = last !== before.last;
    if (stick.current || (appended && lastIsMine)) return scrollToBottom();
    if (first !== before.first && !appended) {
      // Older messages came in above: keep the same messages in view.
      element.scrollTop = element.scrollHeight - element.clientHeight - fromBottom.current;
      return;
    }
    if (appended && before.last) setUnseen(true);
  }, [items, first, last, lastIsMine, scrollToBottom]);

  // The view or its content changes size (a translation arrives, the screen is fitted again): stay at the bottom if there.
  useEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (!stick.current) return;
      // The reader scrolled up and its scroll event is still to come: not pulled back down.
      const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX;
      if (element.scrollTop < pinnedTop.current - BOTTOM_SLACK_PX && !atBottom) {
        stick.current = false;
        return;
      }
      element.scrollTop = element.scrollHeight;
      pinnedTop.current = element.scrollTop;
    });
    observer.observe(element);
    const content = element.querySelector('.message-list');
    if (content) observer.observe(content);
    return () => observer.disconnect();
  }, [pending, items.length > 0]);

  /** Scrolls a message's element to the middle of the view; the view lets go of the bottom. */
  const bringIntoView = useCallback((element: HTMLElement) => {
    stick.current = false;
    setAtBottom(false);
    bringingIntoView.current = true;
    const view = scroller.current;
    const arrived = () => {
      clearTimeout(timer);
      view?.removeEventListener('scrollend', arrived);
      bringingIntoView.current = false;
    };
    const timer = setTimeout(arrived, 1_500);
    view?.addEventListener('scrollend', arrived);
    const smooth = typeof window.matchMedia === 'function' && !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    element.scrollIntoView?.({ block: 'center', behavior: smooth ? 'smooth' : 'auto' });
  }, []);

  return { scroller, atBottom, unseen, onScroll, scrollToBottom, bringIntoView };
}
