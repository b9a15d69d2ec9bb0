// Going to a message: a quote's click, or the message the page was opened for (`target`: a search
// result). Older pages load until it is there (else a toast says it is gone); it is then brought
// into view, takes the focus and flashes for a moment.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/toast';
import { chatKeys } from './api';
import { loadUntil, type MessagePages, type TimelineItem } from './timeline';

/** How long a message jumped to stays highlighted. */
const FLASH_MS = 2_000;

/** The element of a message in the list (a quote's click goes there). */
export const messageElementId = (messageId: number) => `message-${messageId}`;

/** What going to a message needs of the messages' infinite query. */
export interface MessagePaging {
  data: MessagePages | undefined;
  hasNextPage: boolean;
  fetchNextPage: () => Promise<{ data: MessagePages | undefined; hasNextPage: boolean; isFetchNextPageError: boolean }>;
}

export function useJumpToMessage({
  chatId,
  pages,
  items,
  target,
  onTargetDone,
  bringIntoView,
}: {
  chatId: number;
  pages: MessagePaging;
  /** What the list shows: a message loaded is looked for again once it is rendered. */
  items: readonly TimelineItem[];
  target: number | undefined;
  onTargetDone: (() => void) | undefined;
  /** Scrolls the message's element into view (useScrollAnchor). */
  bringIntoView: (element: HTMLElement) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { hasNextPage, fetchNextPage } = pages;
  const [jumpTarget, setJumpTarget] = useState<number | null>(null);
  const [flashId, setFlashId] = useState<number | null>(null);
  const jumping = useRef(false);
  const jumpTo = useCallback(
    async (messageId: number, gone = t('chats.replyGone')) => {
      if (jumping.current) return;
      jumping.current = true;
      try {
        const current = queryClient.getQueryData<MessagePages>(chatKeys.messages(chatId));
        const found = await loadUntil(messageId, { data: current, hasNextPage: hasNextPage }, async () => {
          const result = await fetchNextPage();
          return { data: result.data, hasNextPage: result.hasNextPage, isError: result.isFetchNextPageError };
        });
        if (found) setJumpTarget(messageId);
        else notify.info(gone);
      } finally {
        jumping.current = false;
      }
    },
    [chatId, queryClient, hasNextPage, fetchNextPage, t],
  );
  // The message the page was opened for: gone to once the first page is there (once per request).
  const loaded = pages.data !== undefined;
  const targetTaken = useRef<number | null>(null);
  const latestTarget = useRef(target);
  latestTarget.current = target;
  const targetDone = useRef(onTargetDone);
  targetDone.current = onTargetDone;
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (target === undefined || !loaded || targetTaken.current === target) return;
    targetTaken.current = target;
    void jumpTo(target, t('chats.searchGone')).finally(() => {
      targetTaken.current = null;
      // Not when the reader has left meanwhile, or asked for another message.
      if (mounted.current && latestTarget.current === target) targetDone.current?.();
    });
  }, [target, loaded, jumpTo, t]);
  // Once it is on screen: into view, highlighted, focused.
  useEffect(() => {
    if (jumpTarget === null) return;
    const element = document.getElementById(messageElementId(jumpTarget));
    if (!element) return;
    setJumpTarget(null);
    bringIntoView(element);
    element.focus({ preventScroll: true });
    setFlashId(jumpTarget);
  }, [jumpTarget, items, bringIntoView]);
  useEffect(() => {
    if (flashId === null) return;
    const timer = setTimeout(() => setFlashId(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flashId]);

  return { jumpTo, flashId };
}
