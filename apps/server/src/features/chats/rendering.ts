// A message as one reader sees it: in their language and tone when that rendering is done, else
// the original with the state of the rendering (product.md "Chats and messages").
import type { ChatRole, Language, Tone } from '@parla/contract/constants';
import type { ChatMessage, TranslationState } from '@parla/contract/chat';
import type { Storage } from '../../core/storage';
import type { TranslationProvider } from '../../core/translation/index';
import type { MemberView, MessageRow, MessageWithSender, ReadingGroup, RenderingRow } from './repository';

/** How a member reads a chat. */
export interface Reader extends ReadingGroup {
  memberId: number;
}

/** Whether a reader of `group` needs a rendering of a message written in `source` at all. */
export function needsRendering(provider: Pick<TranslationProvider, 'supportsTone'>, source: string, group: ReadingGroup): boolean {
  if (group.language !== source) return true;
  return group.tone !== 'DEFAULT' && provider.supportsTone;
}

function stateOf(
  provider: Pick<TranslationProvider, 'supportsTone' | 'canTranslate'>,
  message: MessageRow,
  reader: ReadingGroup,
  rendering: RenderingRow | null,
): TranslationState {
  if (!needsRendering(provider, message.language, reader)) return 'none';
  if (rendering && rendering.version === message.version) return rendering.state;
  // No rendering yet: one will be made unless the provider cannot reach the language.
  if (reader.language !== message.language && !provider.canTranslate(message.language as Language, reader.language as Language)) return 'none';
  return 'pending';
}

export function createMessagePresenter(provider: Pick<TranslationProvider, 'supportsTone' | 'canTranslate'>, storage: Storage) {
  const sender = (member: MemberView) => ({
    id: member.id,
    nickName: member.nickName,
    language: member.language as Language,
    chatRole: member.chatRole as ChatRole,
    tone: member.tone as Tone,
    avatarImage: member.avatarKey ? storage.url(member.avatarKey) : null,
  });

  return {
    stateOf: (message: MessageRow, reader: ReadingGroup, rendering: RenderingRow | null) => stateOf(provider, message, reader, rendering),

    present({ message, sender: from, rendering }: MessageWithSender, reader: Reader): ChatMessage {
      const translation = stateOf(provider, message, reader, rendering);
      const done = translation === 'done' && rendering?.content != null;
      const created = message.createdAt.toISOString();
      return {
        id: message.id,
        created,
        isMe: from.id === reader.memberId,
        language: (done ? reader.language : message.language) as Language,
        rawMessage: done ? { id: message.id, language: message.language as Language, content: message.content, created } : null,
        sender: sender(from),
        tone: (done ? (rendering.renderedTone ?? reader.tone) : 'DEFAULT') as Tone,
        content: done ? rendering.content! : message.content,
        translation,
        edited: message.editedAt !== null,
      };
    },
  };
}

export type MessagePresenter = ReturnType<typeof createMessagePresenter>;
