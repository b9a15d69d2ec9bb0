// /api/chat/* bodies and queries (spec sections 3, 5 and 7 "Chat"; product.md "Roles and
// permissions", "Chats and messages").
import * as z from 'zod/mini';
import { LIMITS, PRESENCE } from './constants';
import {
  chatRoleField,
  dateTimeField,
  descriptionField,
  emailField,
  idField,
  idListField,
  idParam,
  languageField,
  languageSetField,
  languagesField,
  limitQueryField,
  memberStateField,
  BLANK,
  emojiField,
  nickNameField,
  queryBooleanField,
  textField,
  titleField,
  toneField,
} from './fields';
import { cursorPageSchema, countedPageSchema, pageIndexQuerySchema } from './pagination';

// ---- Group chats: /chat/ and /chat/{id}/ ----

export const groupChatSchema = z.object({
  id: idField,
  title: z.string(),
  description: z.nullable(z.string()),
  languages: languagesField,
  created: dateTimeField,
  /** Moves on every new message; the chat list is ordered by it, newest first. */
  modified: dateTimeField,
  /** Beyond the spec: the reading member's role. */
  chatRole: chatRoleField,
  /** Beyond the spec: `invited` (the reader may accept or decline, and sees nothing more) or `joined`. */
  memberState: memberStateField,
  /** Beyond the spec: the reader muted the chat's notifications. */
  muted: z.boolean(),
  /** Beyond the spec: while the reader is invited, how whoever invited them is named in the chat (null once joined). */
  invitedBy: z.nullable(z.string()),
});
export type GroupChat = z.infer<typeof groupChatSchema>;

const chatFields = {
  title: titleField,
  description: descriptionField,
  /** Absent on create: the server uses the creator's interface language. */
  languages: z.optional(languageSetField),
};

/** POST /chat/ and PUT /chat/{id}/. */
export const chatCreateRequestSchema = z.object(chatFields);
export type ChatCreateRequest = z.infer<typeof chatCreateRequestSchema>;
export const chatPutRequestSchema = chatCreateRequestSchema;
export type ChatPutRequest = z.infer<typeof chatPutRequestSchema>;
/** PATCH /chat/{id}/: any subset of the fields. */
export const chatPatchRequestSchema = z.partial(chatCreateRequestSchema);
export type ChatPatchRequest = z.infer<typeof chatPatchRequestSchema>;

/**
 * GET /chat/?lastModified=&limit=: chats modified before lastModified, newest first. `lastId`
 * (beyond the spec, in the `next` links) also takes the chats modified at that very moment with a
 * smaller id, so a page boundary never skips one.
 */
export const chatListQuerySchema = z.object({
  lastModified: z.optional(dateTimeField),
  lastId: z.optional(idParam),
  limit: limitQueryField,
});
export type ChatListQuery = z.infer<typeof chatListQuerySchema>;

/**
 * A chat in the list. Beyond the spec (additive): its newest message rendered for the reader
 * (null in a chat without messages) and how many messages after the reader's `lastReadMessage`
 * others wrote.
 */
export const chatListItemSchema = z.extend(groupChatSchema, {
  lastMessage: z.nullable(z.lazy(() => chatMessageSchema)),
  unreadCount: z.int().check(z.nonnegative()),
  /** Of those, how many mention the reader. */
  unreadMentions: z.int().check(z.nonnegative()),
});
export type ChatListItem = z.infer<typeof chatListItemSchema>;

export const chatListPageSchema = cursorPageSchema(chatListItemSchema);

/** GET /chat/unread/ (beyond the spec): what is new for the reader in all their chats, for the navigation and the tab. */
export const unreadSummarySchema = z.object({
  /** Messages others wrote after the reader's last read one, in every chat they joined. */
  messages: z.number().check(z.int(), z.minimum(0)),
  /** How many chats hold such messages. */
  chats: z.number().check(z.int(), z.minimum(0)),
  /** Of those messages, how many mention the reader. */
  mentions: z.number().check(z.int(), z.minimum(0)),
});
export type UnreadSummary = z.infer<typeof unreadSummarySchema>;
export type ChatListPage = z.infer<typeof chatListPageSchema>;

// ---- Own membership: /chat/{groupChatId}/member/ ----

export const chatMemberSchema = z.object({
  /** Beyond the spec: the membership's id (the `sender.id` of one's own messages). */
  id: idField,
  lastReadMessage: z.nullable(z.int()),
  nickName: z.string(),
  language: languageField,
  chatRole: chatRoleField,
  tone: toneField,
  /** Beyond the spec: `invited` until accepted (POST /chat/{groupChatId}/member/accept/), then `joined`. */
  memberState: memberStateField,
  /** Beyond the spec: no notifications or sounds for this chat's messages (mentions of the member still notify). */
  muted: z.boolean(),
});
export type ChatMember = z.infer<typeof chatMemberSchema>;

/**
 * PUT /chat/{groupChatId}/member/. `language` must also be one of the chat's languages (checked
 * by the server). The own role is not editable here: a `chatRole` key is dropped.
 */
export const chatMemberPutRequestSchema = z.object({
  nickName: nickNameField,
  language: languageField,
  tone: toneField,
  lastReadMessage: z.optional(idField),
  /** Beyond the spec: mute the chat's notifications (unchanged when left out). */
  muted: z.optional(z.boolean()),
});
export type ChatMemberPutRequest = z.infer<typeof chatMemberPutRequestSchema>;
/** PATCH /chat/{groupChatId}/member/. */
export const chatMemberPatchRequestSchema = z.partial(chatMemberPutRequestSchema);
export type ChatMemberPatchRequest = z.infer<typeof chatMemberPatchRequestSchema>;

/**
 * `?permanent=` of DELETE /chat/{groupChatId}/member/ (leave) and
 * DELETE /chat/{groupChatId}/members/{id}/ (remove). Without it the row is kept, marked left.
 */
export const chatMemberDeleteQuerySchema = z.object({
  permanent: z._default(queryBooleanField, false),
});
export type ChatMemberDeleteQuery = z.infer<typeof chatMemberDeleteQuerySchema>;

// ---- Managing members: /chat/{groupChatId}/members/ ----

export const manageChatMemberSchema = z.object({
  id: idField,
  /** The member's account e-mail address. */
  user: z.string(),
  chatRole: chatRoleField,
  /** Beyond the spec: how the member is shown (an invited member: the e-mail's local part, no avatar). */
  nickName: z.string(),
  avatarImage: z.nullable(z.string()),
  /** Beyond the spec: `invited` until they accept. */
  memberState: memberStateField,
});
export type ManageChatMember = z.infer<typeof manageChatMemberSchema>;

/** GET /chat/{groupChatId}/members/?pageIndex=&pageSize=&q= */
export const chatMembersQuerySchema = pageIndexQuerySchema;
export type ChatMembersQuery = z.infer<typeof chatMembersQuerySchema>;

export const chatMembersPageSchema = countedPageSchema(manageChatMemberSchema);
export type ChatMembersPage = z.infer<typeof chatMembersPageSchema>;

/** POST /chat/{groupChatId}/members/: `user` is the account's e-mail address. */
export const chatMemberAddRequestSchema = z.object({
  user: emailField,
  chatRole: chatRoleField,
});
export type ChatMemberAddRequest = z.infer<typeof chatMemberAddRequestSchema>;

/** PUT/PATCH /chat/{groupChatId}/members/{id}/ (OWNER only; OWNER hands ownership over). */
export const chatMemberRoleRequestSchema = z.object({ chatRole: chatRoleField });
export type ChatMemberRoleRequest = z.infer<typeof chatMemberRoleRequestSchema>;

/** POST /chat/{groupChatId}/members/multi_delete/ */
export const chatMembersMultiDeleteRequestSchema = z.object({
  ids: idListField,
  permanent: z._default(z.boolean(), false),
});
export type ChatMembersMultiDeleteRequest = z.infer<typeof chatMembersMultiDeleteRequestSchema>;

// ---- Messages: /chat/{groupChatId}/messages/ ----

/** The message as its sender wrote it. */
export const rawMessageSchema = z.object({
  id: idField,
  language: languageField,
  content: z.string(),
  created: dateTimeField,
});
export type RawMessage = z.infer<typeof rawMessageSchema>;

/** The sender of a message as other members see it. */
export const chatMessageSenderSchema = z.object({
  id: idField,
  nickName: z.string(),
  language: languageField,
  chatRole: chatRoleField,
  tone: toneField,
  avatarImage: z.nullable(z.string()),
});
export type ChatMessageSender = z.infer<typeof chatMessageSenderSchema>;

/**
 * Where the reader's rendering of a message stands (beyond the spec): `pending` (the original is
 * shown until the translation arrives), `done`, `failed` (the provider failed after every retry:
 * the original is shown), `none` (nothing to translate, or the provider cannot reach the
 * reader's language: the original is shown).
 */
export const TRANSLATION_STATES = ['pending', 'done', 'failed', 'none'] as const;
export type TranslationState = (typeof TRANSLATION_STATES)[number];

/** A member as a message names them (a mention, a reaction, a quote's sender): the current nickname. */
export const memberRefSchema = z.object({ id: idField, nickName: z.string() });
export type MemberRef = z.infer<typeof memberRefSchema>;

/**
 * The message a reply answers, as the reader reads it: its rendering in the reader's language and
 * tone when one is done, else its original (`translated` false).
 */
export const quotedMessageSchema = z.object({
  id: idField,
  sender: memberRefSchema,
  language: languageField,
  content: z.string(),
  translated: z.boolean(),
});
export type QuotedMessage = z.infer<typeof quotedMessageSchema>;

/**
 * A picture or a file attached to a message (beyond the spec). Pictures are re-encoded (WebP) with
 * a thumbnail; other files are served for download as sent. Both only to members of the chat.
 */
export const ATTACHMENT_KINDS = ['image', 'file'] as const;
export const attachmentSchema = z.object({
  id: idField,
  kind: z.enum(ATTACHMENT_KINDS),
  /** The file's name as sent (a picture's ends in .webp once re-encoded). */
  name: z.string(),
  size: z.int().check(z.nonnegative()),
  contentType: z.string(),
  width: z.nullable(z.int()),
  height: z.nullable(z.int()),
  url: z.string(),
  thumbnailUrl: z.nullable(z.string()),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** One emoji on a message and who put it there (oldest first). Reactions are not translated. */
export const reactionSchema = z.object({ emoji: z.string(), members: z.array(memberRefSchema) });
export type Reaction = z.infer<typeof reactionSchema>;

/**
 * A reader's correction of a rendering (beyond the spec): everyone reading in the same language
 * and tone reads the corrected text; `machine` is what the translator wrote; `by` is the member
 * who corrected it (null once they left the chat). The original and its author are untouched.
 */
export const renderingCorrectionSchema = z.object({
  by: z.nullable(memberRefSchema),
  at: dateTimeField,
  machine: z.string(),
});
export type RenderingCorrection = z.infer<typeof renderingCorrectionSchema>;

/**
 * A message rendered for the reading member: `language`, `tone` and `content` are the rendering
 * (`tone` is the tone really applied: DEFAULT from a provider that knows no tone); `rawMessage`
 * is null when the reader sees the original unchanged.
 */
export const chatMessageSchema = z.object({
  id: idField,
  created: dateTimeField,
  isMe: z.boolean(),
  language: languageField,
  rawMessage: z.nullable(rawMessageSchema),
  sender: chatMessageSenderSchema,
  tone: toneField,
  content: z.string(),
  /** Beyond the spec. */
  translation: z.enum(TRANSLATION_STATES),
  /** Beyond the spec: the sender changed the text after posting it. */
  edited: z.boolean(),
  /**
   * Beyond the spec: the members whose mentions (`<@id>` in `content`, see markup.ts) the content
   * and the quote hold, by their current nickname. A mention of someone no longer in the chat is
   * left out (shown as a former member).
   */
  mentions: z.array(memberRefSchema),
  /** Beyond the spec: the message this one replies to; null when none (or it was deleted). */
  replyTo: z.nullable(quotedMessageSchema),
  /** Beyond the spec: emoji reactions, in the order they were first given. */
  reactions: z.array(reactionSchema),
  /** Beyond the spec: pictures and files; `content` is then their caption (possibly empty). */
  attachments: z.array(attachmentSchema),
  /** Beyond the spec: a reader's correction of this rendering (`content` is then the corrected text); null when none. */
  correction: z.nullable(renderingCorrectionSchema),
  /**
   * Beyond the spec: glossary terms whose required rendering the translator left out even when
   * asked twice (the rendering is kept; readers may correct it). Empty almost always.
   */
  missedTerms: z.array(z.string()),
  /** Beyond the spec: pinned to the chat by an OWNER or ADMIN (`by` null once they left); null when not. */
  pinned: z.nullable(z.object({ by: z.nullable(memberRefSchema), at: dateTimeField })),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** GET /chat/{groupChatId}/messages/?limit=&toId=: newest first, ids below toId. */
export const chatMessagesQuerySchema = z.object({
  limit: limitQueryField,
  toId: z.optional(idParam),
});
export type ChatMessagesQuery = z.infer<typeof chatMessagesQuerySchema>;

export const chatMessagesPageSchema = cursorPageSchema(chatMessageSchema);
export type ChatMessagesPage = z.infer<typeof chatMessagesPageSchema>;

const messageContentField = textField(LIMITS.messageMax, { min: 1, trim: true, example: 'See you all at ten!' });
/** A caption: may be empty when the message carries attachments. */
const captionField = textField(LIMITS.messageMax, { trim: true, example: 'See you all at ten!' });

/**
 * POST /chat/{groupChatId}/messages/. The same clientId from the same member is posted once.
 * `content` may mention members as `<@memberId>` (members of the chat only); `replyTo` is a message
 * of the same chat.
 */
export const chatMessageCreateRequestSchema = z
  .object({
    content: captionField,
    clientId: z.optional(z.uuid()),
    replyTo: z.optional(idField),
    /** Uploads of the sender's (POST …/attachments/) not yet in a message. */
    attachments: z.optional(
      z.array(idField).check(
        z.maxLength(LIMITS.attachmentsPerMessage),
        z.refine((ids) => new Set(ids).size === ids.length, { message: 'Ids must be distinct.' }),
      ),
    ),
  })
  .check(z.refine((body) => body.content !== '' || (body.attachments?.length ?? 0) > 0, { path: ['content'], params: { code: BLANK } }));
export type ChatMessageCreateRequest = z.infer<typeof chatMessageCreateRequestSchema>;

/** PUT and PATCH /chat/{groupChatId}/messages/{id}/ (own messages only). */
export const chatMessageUpdateRequestSchema = z.object({ content: messageContentField });
export type ChatMessageUpdateRequest = z.infer<typeof chatMessageUpdateRequestSchema>;

/** PUT /chat/{groupChatId}/messages/{id}/rendering/: the reader's correction of their rendering. */
export const renderingCorrectionRequestSchema = z.object({ content: messageContentField });
export type RenderingCorrectionRequest = z.infer<typeof renderingCorrectionRequestSchema>;


// ---- Attachments: /chat/{groupChatId}/attachments/ ----

/** GET …/attachments/{id}/{variant}: the file itself, or a picture's thumbnail. */
export const ATTACHMENT_VARIANTS = ['file', 'thumbnail'] as const;
export const attachmentPathSchema = z.object({ groupChatId: idParam, id: idParam, variant: z.enum(ATTACHMENT_VARIANTS) });

// ---- Search: /chat/search/ ----

/**
 * GET /chat/search/?q=&chatId=&limit=&toId=: messages of the reader's chats (or of one) whose
 * original or whose rendering for the reader matches `q` (words, "a phrase", -not, or), newest
 * first, ids below `toId`. Each text is matched in its own language's terms: a Spanish reader's
 * "reuniones" finds "reunión" in a Spanish rendering of an English message.
 */
export const chatSearchQuerySchema = z.object({
  q: textField(200, { min: 1, trim: true, singleLine: true, example: 'reunión' }),
  chatId: z.optional(idParam),
  /** At most LIMITS.searchPageMax: each result is a whole message. */
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(LIMITS.searchPageMax)), LIMITS.pageSizeDefault),
  toId: z.optional(idParam),
});
export type ChatSearchQuery = z.infer<typeof chatSearchQuerySchema>;

export const chatSearchResultSchema = z.object({
  chat: z.object({ id: idField, title: z.string() }),
  /** As the reader reads it (their rendering, with the original in `rawMessage`). */
  message: chatMessageSchema,
  /** The words of the texts that matched, as written there (to highlight them). */
  highlights: z.array(z.string()),
});
export type ChatSearchResult = z.infer<typeof chatSearchResultSchema>;
export const chatSearchPageSchema = cursorPageSchema(chatSearchResultSchema);
export type ChatSearchPage = z.infer<typeof chatSearchPageSchema>;

// ---- Reactions: /chat/{groupChatId}/messages/{id}/reactions/ ----

/** POST …/reactions/: react with one emoji (again: nothing changes, 200). */
export const reactionRequestSchema = z.object({ emoji: emojiField });
export type ReactionRequest = z.infer<typeof reactionRequestSchema>;
/** DELETE …/reactions/?emoji=: take one's own reaction back. */
export const reactionDeleteQuerySchema = reactionRequestSchema;
/** GET …/reactions/ and the answer to POST: the message's reactions. */
export const reactionsSchema = z.object({ messageId: idField, reactions: z.array(reactionSchema) });
export type Reactions = z.infer<typeof reactionsSchema>;

// ---- Earlier versions: /chat/{groupChatId}/messages/{id}/versions/ ----

/**
 * An earlier text of an edited message as the reader reads it: `content` in their language and
 * tone when `translation` is done, else as written (`original`, always given). `written` is when
 * that text was posted or put in by an edit.
 */
export const messageVersionSchema = z.object({
  version: z.int().check(z.minimum(1)),
  written: dateTimeField,
  language: languageField,
  content: z.string(),
  translation: z.enum(TRANSLATION_STATES),
  original: z.object({ language: languageField, content: z.string() }),
});
export type MessageVersion = z.infer<typeof messageVersionSchema>;

/** GET …/versions/: the earlier texts, the newest first (at most LIMITS.versionsShown); the current text is the message itself. */
export const messageVersionsSchema = z.object({ messageId: idField, results: z.array(messageVersionSchema) });
export type MessageVersions = z.infer<typeof messageVersionsSchema>;

// ---- Read receipts and presence: /chat/{groupChatId}/receipts/, /chat/{groupChatId}/presence/ ----

/** How far a member read (their read marker) and when they last moved it (null: before such times were kept). */
export const readReceiptSchema = z.object({
  memberId: idField,
  nickName: z.string(),
  lastReadMessage: idField,
  readAt: z.nullable(dateTimeField),
});
export type ReadReceipt = z.infer<typeof readReceiptSchema>;

/**
 * GET /chat/{groupChatId}/receipts/: the other members' read markers (those who share them). A
 * message was seen by every member whose `lastReadMessage` is at or past it. `enabled` false: the
 * reader does not share theirs, so sees nobody's (`results` empty).
 */
export const chatReceiptsSchema = z.object({ enabled: z.boolean(), results: z.array(readReceiptSchema) });
export type ChatReceipts = z.infer<typeof chatReceiptsSchema>;

/** A member's presence: `lastSeen` when offline and known (null for one who hides it). */
export const memberPresenceSchema = z.object({
  memberId: idField,
  state: z.enum(PRESENCE.states),
  lastSeen: z.nullable(dateTimeField),
});
export type MemberPresence = z.infer<typeof memberPresenceSchema>;

/** GET /chat/{groupChatId}/presence/: every joined member's presence, the reader's own included. */
export const chatPresenceSchema = z.object({ results: z.array(memberPresenceSchema) });
export type ChatPresence = z.infer<typeof chatPresenceSchema>;

// ---- Pinned messages: /chat/{groupChatId}/pins/, /chat/{groupChatId}/messages/{id}/pin/ ----

/** GET /chat/{groupChatId}/pins/: the pinned messages in the reader's language, the latest pinned first (at most LIMITS.pinsPerChat). */
export const chatPinsSchema = z.object({ results: z.array(chatMessageSchema) });
export type ChatPins = z.infer<typeof chatPinsSchema>;

// ---- Path parameters ----

/** /chat/{id}/ */
export const chatPathSchema = z.object({ id: idParam });
/** /chat/{groupChatId}/... */
export const chatScopePathSchema = z.object({ groupChatId: idParam });
/** /chat/{groupChatId}/members/{id}/ and /chat/{groupChatId}/messages/{id}/ */
export const chatItemPathSchema = z.object({ groupChatId: idParam, id: idParam });
