// A translation whose push was missed: a message still `pending` a while after it was written has
// the chat's messages fetched again (once per message).
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@parla/contract/chat';
import { chatKeys } from './api';

/** A message still `pending` this long after it was written is fetched again (a missed push). */
const PENDING_RECHECK_MS = 20_000;

export function usePendingRecheck(chatId: number, messages: readonly ChatMessage[]) {
  const queryClient = useQueryClient();
  const rechecked = useRef(new Set<number>());
  useEffect(() => {
    const pending = messages.filter((message) => message.translation === 'pending' && !rechecked.current.has(message.id));
    if (!pending.length) return;
    const due = Math.min(...pending.map((message) => Date.parse(message.created))) + PENDING_RECHECK_MS - Date.now();
    const timer = setTimeout(
      () => {
        pending.forEach((message) => rechecked.current.add(message.id));
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(chatId) });
      },
      Math.max(0, due),
    );
    return () => clearTimeout(timer);
  }, [messages, chatId, queryClient]);
}
