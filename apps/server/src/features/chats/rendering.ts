// A message as one reader sees it: in their language and tone when that rendering is done, else
// the original with the state of the rendering (product.md "Chats and messages").
import type { ChatRole, Language, Tone } from '@parla/contract/constants';
import type { Attachment, ChatMessage, MemberRef, QuotedMessage, Reaction, RenderingCorrection, TranslationState } from '@parla/contract/chat';
import { API } from '@parla/contract/api';
import { fillPath } from '../../platform/routes';
import { mentionedIds } from '@parla/contract/markup';
import type { Storage } from '../../platform/storage';
import { groupNeed, type TargetProvider, type ReaderGroup } from '../../domain/rendering/reader-group';
import type { AttachmentRow, ChatsRepository, MemberView, MessageRow, MessageWithSender, QuoteRow, ReactionRow, RenderingRow } from './repository';

/** How a member reads a chat. */
export interface Reader extends ReaderGroup {
  memberId: number;
}

/**
 * What a message view needs beyond its row, read once for a page or a push: the current nicknames
 * of the members mentioned, and the reactions by message.
 */
export interface MessageContext {
  names: ReadonlyMap<number, string>;
  reactions: ReadonlyMap<number, Reaction[]>;
  attachments?: ReadonlyMap<number, Attachment[]>;
}

export const emptyContext: MessageContext = { names: new Map(), reactions: new Map() };

/** An attachment as members see it: served by a route that checks them (never a public URL). */
export function presentAttachment(row: AttachmentRow, publicUrl: string): Attachment {
  const at = (variant: 'file' | 'thumbnail') => `${publicUrl}${fillPath(API.getAttachment, { groupChatId: row.chatId, id: row.id, variant })}`;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    size: row.size,
    contentType: row.contentType,
    width: row.width,
    height: row.height,
    url: at('file'),
    thumbnailUrl: row.thumbnailKey ? at('thumbnail') : null,
  };
}

/**
 * The context of these rows, read side by side: the nicknames of the members they (and their quotes)
 * mention, their reactions, and the attachments of those that have some. For a page, a post and a push.
 */
export async function readContext(
  repo: Pick<ChatsRepository, 'nickNames' | 'reactionsFor' | 'attachmentsFor'>,
  publicUrl: string,
  chatId: number,
  rows: readonly Pick<MessageWithSender, 'message' | 'quote'>[],
  renderings: readonly (Pick<RenderingRow, 'correctedBy'> | null)[] = [],
): Promise<MessageContext> {
  const pinners = rows.flatMap((row) => (row.message.pinnedBy === null ? [] : [row.message.pinnedBy]));
  const mentioned = [...new Set([...mentionsOf(rows), ...correctorsOf(renderings), ...pinners])];
  const withFiles = rows.filter((row) => row.message.hasAttachments).map((row) => row.message.id);
  const [names, reactions, attachments] = await Promise.all([
    mentioned.length ? repo.nickNames(chatId, mentioned) : new Map<number, string>(),
    rows.length ? repo.reactionsFor(rows.map((row) => row.message.id)) : [],
    repo.attachmentsFor(withFiles),
  ]);
  return { names, reactions: groupReactions(reactions), attachments: groupAttachments(attachments, publicUrl) };
}

/** Attachments grouped by message. */
export function groupAttachments(rows: readonly AttachmentRow[], publicUrl: string): Map<number, Attachment[]> {
  const byMessage = new Map<number, Attachment[]>();
  for (const row of rows) {
    if (row.messageId === null) continue;
    byMessage.set(row.messageId, [...(byMessage.get(row.messageId) ?? []), presentAttachment(row, publicUrl)]);
  }
  return byMessage;
}

/** The members the messages (and their quotes) mention. */
export function mentionsOf(rows: readonly Pick<MessageWithSender, 'message' | 'quote'>[]): number[] {
  const ids = new Set<number>();
  for (const row of rows) {
    for (const id of mentionedIds(row.message.content)) ids.add(id);
    if (row.quote) for (const id of mentionedIds(row.quote.message.content)) ids.add(id);
  }
  return [...ids];
}

/** The members who corrected these renderings (their names come with the mentioned ones). */
export function correctorsOf(renderings: readonly (Pick<RenderingRow, 'correctedBy'> | null)[]): number[] {
  const ids: number[] = [];
  for (const rendering of renderings) if (rendering?.correctedBy != null) ids.push(rendering.correctedBy);
  return ids;
}

/** Reactions grouped by message and emoji, in the order each emoji was first given. */
export function groupReactions(rows: readonly ReactionRow[]): Map<number, Reaction[]> {
  const byMessage = new Map<number, Reaction[]>();
  for (const row of rows) {
    let list = byMessage.get(row.messageId);
    if (!list) byMessage.set(row.messageId, (list = []));
    let reaction = list.find((item) => item.emoji === row.emoji);
    if (!reaction) list.push((reaction = { emoji: row.emoji, members: [] }));
    reaction.members.push({ id: row.memberId, nickName: row.nickName });
  }
  return byMessage;
}

/** The quote as the reader reads it: their rendering when done for its current text, else the original. */
function presentQuote(quote: QuoteRow, reader: ReaderGroup): QuotedMessage {
  const { message, sender, rendering } = quote;
  const done = rendering && rendering.state === 'done' && rendering.version === message.version && rendering.content != null;
  return {
    id: message.id,
    sender: { id: sender.id, nickName: sender.nickName },
    language: (done ? reader.language : message.language) as Language,
    content: done ? rendering.content! : message.content,
    translated: Boolean(done),
  };
}

/** A reader's correction: who made it (by their current nickname; null once they left), when, and the machine's text. */
function presentCorrection(rendering: RenderingRow, context: MessageContext): RenderingCorrection {
  const nickName = rendering.correctedBy === null ? undefined : context.names.get(rendering.correctedBy);
  return {
    by: rendering.correctedBy !== null && nickName !== undefined ? { id: rendering.correctedBy, nickName } : null,
    at: rendering.correctedAt!.toISOString(),
    machine: rendering.machineContent!,
  };
}

/** Who pinned the message (by their current nickname; null once they left) and when; null when not pinned. */
export function presentPin(message: Pick<MessageRow, 'pinnedAt' | 'pinnedBy'>, context: Pick<MessageContext, 'names'>): ChatMessage['pinned'] {
  if (!message.pinnedAt) return null;
  const nickName = message.pinnedBy === null ? undefined : context.names.get(message.pinnedBy);
  return { by: message.pinnedBy !== null && nickName !== undefined ? { id: message.pinnedBy, nickName } : null, at: message.pinnedAt.toISOString() };
}

function stateOf(provider: TargetProvider, message: MessageRow, reader: ReaderGroup, rendering: RenderingRow | null): TranslationState {
  // Pictures or files without a caption: nothing to translate.
  if (message.content === '') return 'none';
  const need = groupNeed(provider, message.language, reader);
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
    stateOf: (message: MessageRow, reader: ReaderGroup, rendering: RenderingRow | null) => stateOf(provider, message, reader, rendering),

    present({ message, sender: from, rendering, quote }: MessageWithSender, reader: Reader, context: MessageContext = emptyContext): ChatMessage {
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
        // Only names read for the context are shown: with none read, there is nothing to look for.
        mentions:
          context.names.size === 0
            ? []
            : mentionsOf([{ message, quote }]).flatMap((id): MemberRef[] => {
                const nickName = context.names.get(id);
                return nickName === undefined ? [] : [{ id, nickName }];
              }),
        replyTo: quote ? presentQuote(quote, reader) : null,
        reactions: context.reactions.get(message.id) ?? [],
        attachments: context.attachments?.get(message.id) ?? [],
        correction: done && rendering.machineContent !== null && rendering.correctedAt !== null ? presentCorrection(rendering, context) : null,
        missedTerms: done && rendering.machineContent === null ? (rendering.missedTerms ?? []) : [],
        pinned: presentPin(message, context),
      };
    },
  };
}

export type MessagePresenter = ReturnType<typeof createMessagePresenter>;
