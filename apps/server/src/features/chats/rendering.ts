// A message as one reader sees it: in their language and tone when that rendering is done, else
// the original with the state of the rendering (product.md "Chats and messages").
import type { ChatRole, Language, Tone } from '@parla/contract/constants';
import type { ChatMessage, TranslationState } from '@parla/contract/chat';
import type { Storage } from '../../core/storage';
import { targetNeed, type TargetProvider } from '../../core/translation/targets';
import type { MemberView, MessageRow, MessageWithSender, ReadingGroup, RenderingRow } from './repository';

/** How a member reads a chat. */
export interface Reader extends ReadingGroup {
  memberId: number;
}

function stateOf(provider: TargetProvider, message: MessageRow, reader: ReadingGroup, rendering: RenderingRow | null): TranslationState {
  const need = targetNeed(provider, message.language, reader);
  if (need === 'original') return 'none';
  if (rendering && rendering.version === message.version) return rendering.state;
  // No rendering yet: one will be made unless the provider cannot reach the language.
  return need === 'rendering' ? 'pending' : 'none';
}

export function createMessagePresenter(provider: TargetProvider, storage: Storage) {
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
