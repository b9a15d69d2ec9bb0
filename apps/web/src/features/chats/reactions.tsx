// Reactions under a bubble: one chip per emoji ("👍 2"), pressed when the reader is among those
// who gave it, toggled with a click; and the picker of the eight usual emoji (from the message's
// menu or the chips' "+"). Reactions are not translated: the same for every reader.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage, Reaction } from '@parla/contract/chat';
import { LIMITS } from '@parla/contract/constants';
import { formatList } from '../../lib/format';
import { addReaction, chatKeys, removeReaction } from './api';
import { setReactions, withoutReaction, type MessagePages } from './timeline';

/** The picker's emoji and the key of each one's name. */
export const PICKER_EMOJI = [
  ['👍', 'thumbsUp'],
  ['❤️', 'heart'],
  ['😂', 'laughing'],
  ['🎉', 'party'],
  ['😮', 'surprised'],
  ['😢', 'sad'],
  ['🙏', 'thanks'],
  ['👀', 'eyes'],
] as const;

/** Gives or takes back the reader's `emoji` on a message, and puts the outcome in the cache. */
export function useReact(chatId: number, message: ChatMessage, meId: number) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const put = (reactions: Reaction[]) => queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), (data) => setReactions(data, message.id, reactions));
  const mine = (emoji: string) => message.reactions.some((reaction) => reaction.emoji === emoji && reaction.members.some((member) => member.id === meId));
  const toggle = async (emoji: string, give = !mine(emoji)) => {
    if (busy !== null) return;
    setBusy(emoji);
    try {
      if (give) {
        const answer = await addReaction(chatId, message.id, emoji);
        if (answer) put(answer.reactions);
      } else if (await removeReaction(chatId, message.id, emoji)) {
        const current = queryClient.getQueryData<MessagePages>(chatKeys.messages(chatId));
        const shown = current?.pages.flatMap((page) => page.results).find((item) => item.id === message.id)?.reactions ?? message.reactions;
        put(withoutReaction(shown, emoji, meId));
      }
    } finally {
      setBusy(null);
    }
  };
  return { toggle, mine, busy };
}

export function ReactionBar({
  chatId,
  message,
  meId,
  onAdd,
  addRef,
}: {
  chatId: number;
  message: ChatMessage;
  meId: number;
  /** Opens the picker (from the "+" chip). */
  onAdd: () => void;
  addRef: RefObject<HTMLButtonElement | null>;
}) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const { toggle, mine, busy } = useReact(chatId, message, meId);
  if (message.reactions.length === 0) return null;
  return (
    <ul className="reactions" aria-label={t('chats.reactions')}>
      {message.reactions.map((reaction) => {
        const names = reaction.members.map((member) => (member.id === meId ? t('chats.you') : member.nickName));
        const label = t('chats.reactedBy', { emoji: reaction.emoji, names: formatList(names, uiLang) });
        const pressed = mine(reaction.emoji);
        return (
          <li key={reaction.emoji}>
            <button
              type="button"
              className={`reaction-chip${pressed ? ' pressed' : ''}`}
              aria-pressed={pressed}
              aria-label={label}
              title={label}
              aria-busy={busy === reaction.emoji || undefined}
              onClick={(event) => {
                const item = event.currentTarget.closest<HTMLElement>('li.message');
                void toggle(reaction.emoji).then(() =>
                  // The last one taken back, its chip went with the focus: to the "+", else to the message's menu.
                  requestAnimationFrame(() => {
                    if (document.activeElement && document.activeElement !== document.body) return;
                    (addRef.current ?? item?.querySelector<HTMLElement>('.bubble-meta .icon-btn'))?.focus();
                  }),
                );
              }}
            >
              <span className="reaction-emoji" aria-hidden="true">
                {reaction.emoji}
              </span>
              <span aria-hidden="true">{reaction.members.length}</span>
            </button>
          </li>
        );
      })}
      <li>
        <button ref={addRef} type="button" className="reaction-chip reaction-add" aria-label={t('chats.addReaction')} title={t('chats.addReaction')} onClick={onAdd}>
          <span aria-hidden="true">+</span>
          <span className="reaction-emoji" aria-hidden="true">
            🙂
          </span>
        </button>
      </li>
    </ul>
  );
}

/**
 * The picker: eight emoji buttons in a small popover. The first takes the focus; Escape, a click
 * elsewhere or a pick closes it, and the focus goes back to what opened it.
 */
export function ReactionPicker({
  chatId,
  message,
  meId,
  opener,
  returnFocus,
  onClose,
}: {
  chatId: number;
  message: ChatMessage;
  meId: number;
  /** The button that toggles it: a press there is its own (not a click elsewhere). */
  opener?: RefObject<HTMLElement | null> | undefined;
  returnFocus: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { toggle, mine } = useReact(chatId, message, meId);
  const box = useRef<HTMLDivElement>(null);
  const full = message.reactions.length >= LIMITS.reactionsPerMessage;

  useEffect(() => {
    box.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus({ preventScroll: true });
    box.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);

  // A click outside closes it (the focus stays where that click put it).
  useEffect(() => {
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (box.current && !box.current.contains(target) && !opener?.current?.contains(target)) onClose();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [onClose, opener]);

  const close = () => {
    onClose();
    returnFocus();
  };

  return (
    <div
      ref={box}
      className="reaction-picker"
      role="group"
      aria-label={t('chats.addReaction')}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          close();
          return;
        }
        // Arrow keys move along the row (Tab moves too).
        if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End') return;
        const buttons = [...(box.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
        const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
        const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
        const step = (event.key === 'ArrowRight') !== rtl ? 1 : -1;
        const next = event.key === 'Home' ? 0 : event.key === 'End' ? buttons.length - 1 : (at + step + buttons.length) % buttons.length;
        event.preventDefault();
        buttons[next]?.focus();
      }}
    >
      {PICKER_EMOJI.map(([emoji, name]) => {
        const given = mine(emoji);
        const present = message.reactions.some((reaction) => reaction.emoji === emoji);
        return (
          <button
            key={emoji}
            type="button"
            className={`picker-emoji${given ? ' pressed' : ''}`}
            aria-label={t(`chats.emoji.${name}`)}
            aria-pressed={given}
            title={t(`chats.emoji.${name}`)}
            // A message holds at most LIMITS.reactionsPerMessage different emoji.
            disabled={full && !present}
            onClick={() => {
              void toggle(emoji, !given);
              close();
            }}
          >
            {emoji}
          </button>
        );
      })}
    </div>
  );
}
