// Live pushes (product.md "Live pushes"): one Socket.IO endpoint on the API's origin. The socket
// authenticates with the session cookie (or `auth: { token: <access token> }`); a client
// subscribes to each chat it shows, and every event reaches it already rendered for it.
import * as z from 'zod/mini';
import { chatMessageSchema, groupChatSchema } from './chat';
import { roomSchema, segmentSchema } from './rooms';
import { idField } from './fields';

// The path and the typing hold live in constants.ts (plain values the client can import without
// these schemas); re-exported here for the server.
export { LIVE_PATH, TYPING_HOLD_MS } from './constants';

// ---- client → server (each with an acknowledgement) ----

export const chatRefSchema = z.object({ chatId: idField });
export type ChatRef = z.infer<typeof chatRefSchema>;
export const roomRefSchema = z.object({ roomId: idField });
export type RoomRef = z.infer<typeof roomRefSchema>;

/**
 * The answer to `chat:subscribe` and `room:subscribe`: `not_found` for a chat the caller is not a
 * member of (or only invited to), `throttled` when the connection sent too many events.
 */
export type SubscribeAck = { ok: true } | { ok: false; error: 'not_found' | 'invalid' | 'throttled' };

export interface ClientToServerEvents {
  /** Start receiving a chat's events (membership checked now and on every change). */
  'chat:subscribe': (payload: ChatRef, ack: (answer: SubscribeAck) => void) => void;
  'chat:unsubscribe': (payload: ChatRef) => void;
  /** "I am writing": the other subscribers get `typing` (send at most every 2 s while typing). */
  'chat:typing': (payload: ChatRef) => void;
  /** Start receiving a room's events (participation checked now and on every change). */
  'room:subscribe': (payload: RoomRef, ack: (answer: SubscribeAck) => void) => void;
  'room:unsubscribe': (payload: RoomRef) => void;
}

// ---- server → client ----

export const messageEventSchema = z.object({ chatId: idField, message: chatMessageSchema });
export type MessageEvent = z.infer<typeof messageEventSchema>;

export const messageDeletedEventSchema = z.object({ chatId: idField, messageId: idField });
export type MessageDeletedEvent = z.infer<typeof messageDeletedEventSchema>;
/** Messages that went with a member removed for good. */
export const messagesDeletedEventSchema = z.object({ chatId: idField, messageIds: z.array(idField) });
export type MessagesDeletedEvent = z.infer<typeof messagesDeletedEventSchema>;

export const chatEventSchema = z.object({ chat: groupChatSchema });
export type ChatEvent = z.infer<typeof chatEventSchema>;

export const typingEventSchema = z.object({ chatId: idField, member: z.object({ id: idField, nickName: z.string() }) });
export type TypingEvent = z.infer<typeof typingEventSchema>;


export const segmentEventSchema = z.object({ roomId: idField, segment: segmentSchema });
export type SegmentEvent = z.infer<typeof segmentEventSchema>;
/** Segments that went with a participant removed for good. */
export const segmentsDeletedEventSchema = z.object({ roomId: idField, segmentIds: z.array(idField) });
export type SegmentsDeletedEvent = z.infer<typeof segmentsDeletedEventSchema>;
export const roomEventSchema = z.object({ room: roomSchema });
export type RoomEvent = z.infer<typeof roomEventSchema>;

export interface ServerToClientEvents {
  /** A new message, rendered for this reader (often `translation: 'pending'` at first). */
  'message:created': (event: MessageEvent) => void;
  /** The reader's translation is ready (or failed): replace the message by id. */
  'message:rendered': (event: MessageEvent) => void;
  'message:edited': (event: MessageEvent) => void;
  'message:deleted': (event: MessageDeletedEvent) => void;
  /** A member was removed for good with their messages: drop these. */
  'messages:deleted': (event: MessagesDeletedEvent) => void;
  /** The chat's title, description or languages changed (with the reader's role). */
  'chat:updated': (event: ChatEvent) => void;
  /** The chat is gone, or the reader left or was removed: stop showing it. */
  'chat:removed': (event: ChatRef) => void;
  /** Members were added, removed or changed role: reload the members list. */
  'members:changed': (event: ChatRef) => void;
  'typing': (event: TypingEvent) => void;
  /** A new utterance, as this listener gets it (transcribing at first). */
  'segment:created': (event: SegmentEvent) => void;
  /** A step of the pipeline finished for this listener (transcript, translation, voice): replace by id. */
  'segment:rendered': (event: SegmentEvent) => void;
  /** The speaker corrected the transcript (or the listener changed its tone). */
  'segment:edited': (event: SegmentEvent) => void;
  /** A participant was removed for good with their utterances: drop these. */
  'segments:deleted': (event: SegmentsDeletedEvent) => void;
  /** The room's details or state changed (with the reader's role): e.g. Live, so ask for an lkToken. */
  'room:updated': (event: RoomEvent) => void;
  /** The room is gone, or the reader left or was removed. */
  'room:removed': (event: RoomRef) => void;
  'participants:changed': (event: RoomRef) => void;
}
