// Live pushes (product.md "Live pushes"): one Socket.IO endpoint on the API's origin. The socket
// authenticates with the session cookie (or `auth: { token: <access token> }`); a client
// subscribes to each chat it shows, and every event reaches it already rendered for it.
import * as z from 'zod/mini';
import { chatMessageSchema, groupChatSchema, memberPresenceSchema, reactionsSchema, readReceiptSchema, type ChatMessage, type ChatMessageCreateRequest } from './chat';
import type { ErrorBody } from './errors';
import { roomSchema, segmentSchema } from './rooms';
import { idField } from './fields';
import { MESH } from './constants';
import type { PartialSegmentEvent } from './interpreting';

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

/**
 * `message:send`: a message posted over the live connection, as POST /api/chat/{chatId}/messages/
 * takes it (the same body, validated by the same schema, `chatMessageCreateRequestSchema`, with
 * the chat's id beside it), under the same rate limits. A connection already says who is calling,
 * so a post needs no request of its own.
 */
export type MessageSendRequest = ChatRef & ChatMessageCreateRequest;

/**
 * The answer to `message:send`: the stored message as the POST answers it (`created` false for a
 * clientId the sender used already: the POST's 200), or the POST's error: its status and the
 * standard error body (a bad `chatId` is the POST's 404 for a path naming no chat); `throttled`
 * alone when the connection sent too many events (as for every event, see SubscribeAck).
 */
export type MessageSendAck =
  | { ok: true; created: boolean; message: ChatMessage }
  | { ok: false; status: number; error: ErrorBody }
  | { ok: false; error: 'throttled' };

export const presenceAwaySchema = z.object({ away: z.boolean() });
export type PresenceAway = z.infer<typeof presenceAwaySchema>;

// ---- the call without a media server (a WebRTC mesh signalled here) ----

/** What one peer tells another to connect: a session description or a network candidate. */
/**
 * Names one call's tab (`instance` of call:join) or one peer connection (`connection` of a signal):
 * random, chosen by the client.
 */
const callTokenField = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/));

/**
 * Enter a room's call. `instance` names this tab's call: entering again with the same one (after the
 * live connection dropped and came back within MESH.rejoinGraceMs) is a return, not a newcomer; the
 * others are not told anyone left or came, and the peer connections that still carry media stay.
 */
export const callJoinSchema = z.object({ roomId: idField, instance: z.optional(callTokenField) });
export type CallJoin = z.infer<typeof callJoinSchema>;

/**
 * What peers tell each other through the server. `connection` names the peer connection a signal
 * belongs to (the offerer's choice, kept by both sides): an offer with another name starts a new
 * connection in place of the old one; an answer or candidate of another connection is stale.
 */
export const callSignalSchema = z.union([
  z.object({ type: z.enum(['offer', 'answer']), sdp: z.string().check(z.minLength(1), z.maxLength(MESH.sdpMax)), connection: z.optional(callTokenField) }),
  z.object({
    type: z.literal('candidate'),
    connection: z.optional(callTokenField),
    candidate: z.string().check(z.maxLength(MESH.candidateMax)),
    sdpMid: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
    sdpMLineIndex: z.optional(z.nullable(z.number().check(z.int(), z.minimum(0), z.maximum(64)))),
  }),
]);
export type CallSignal = z.infer<typeof callSignalSchema>;

export const callSignalRequestSchema = z.object({ roomId: idField, to: idField, signal: callSignalSchema });
export type CallSignalRequest = z.infer<typeof callSignalRequestSchema>;

/** Someone in the call, as the others see them. */
export interface CallPeer {
  participantId: number;
  alias: string;
}

/** An ICE server (STUN or TURN) as the browser's RTCPeerConnection takes it. */
export interface CallIceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/**
 * The answer to `call:join`: who is in the call already (the newcomer offers to each of them) and
 * the ICE servers to use; `not_found` for a room the caller is not in, `not_live` when the room is
 * not Live, `full` at MESH.maxPeers.
 */
export type CallJoinAck =
  | {
      ok: true;
      self: CallPeer;
      peers: CallPeer[];
      iceServers: CallIceServer[];
      maxPeers: number;
      /** A return of the same tab (see callJoinSchema): the others kept their connections to it. */
      resumed: boolean;
    }
  | { ok: false; error: 'not_found' | 'not_live' | 'full' | 'invalid' | 'throttled' };

/** The answer to `call:signal`: `not_found` when the sender is not in that call. */
export type CallSignalAck = { ok: true } | { ok: false; error: 'not_found' | 'invalid' | 'throttled' };

export interface ClientToServerEvents {
  /**
   * This connection is idle (no input for PRESENCE.awayAfterMs, or its page hidden) or in use again:
   * the person is `away` while all their connections are.
   */
  'presence:away': (payload: PresenceAway) => void;
  /** Enter the room's call (a participant, while the room is Live). */
  'call:join': (payload: CallJoin, ack: (answer: CallJoinAck) => void) => void;
  'call:leave': (payload: RoomRef) => void;
  /** A signal for one peer of the call (relayed only between people in it). */
  'call:signal': (payload: CallSignalRequest, ack: (answer: CallSignalAck) => void) => void;
  /** Start receiving a chat's events (membership checked now and on every change). */
  'chat:subscribe': (payload: ChatRef, ack: (answer: SubscribeAck) => void) => void;
  'chat:unsubscribe': (payload: ChatRef) => void;
  /** "I am writing": the other subscribers get `typing` (send at most every 2 s while typing). */
  'chat:typing': (payload: ChatRef) => void;
  /** Post a message (see MessageSendRequest); the answer is the POST's (MessageSendAck). */
  'message:send': (payload: MessageSendRequest, ack: (answer: MessageSendAck) => void) => void;
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

/** A message's reactions changed: the whole list (the same for every reader). */
export const reactionsEventSchema = z.extend(reactionsSchema, { chatId: idField });
export type ReactionsEvent = z.infer<typeof reactionsEventSchema>;

/** A message was pinned (`pinned` as the message now holds it) or unpinned (null): the same for every reader. */
export const pinEventSchema = z.object({ chatId: idField, messageId: idField, pinned: chatMessageSchema.shape.pinned });
export type PinEvent = z.infer<typeof pinEventSchema>;

/** Read markers that moved (AWARENESS_BATCH: batched per chat), for readers who share theirs. */
export const receiptsEventSchema = z.object({ chatId: idField, receipts: z.array(readReceiptSchema) });
export type ReceiptsEvent = z.infer<typeof receiptsEventSchema>;

/** Members whose presence changed (AWARENESS_BATCH: batched per chat). */
export const presenceEventSchema = z.object({ chatId: idField, presence: z.array(memberPresenceSchema) });
export type PresenceEvent = z.infer<typeof presenceEventSchema>;

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
  /** Someone reacted to a message or took a reaction back. */
  'message:reactions': (event: ReactionsEvent) => void;
  /** A message was pinned or unpinned. */
  'message:pinned': (event: PinEvent) => void;
  /** A member was removed for good with their messages: drop these. */
  'messages:deleted': (event: MessagesDeletedEvent) => void;
  /** The chat's title, description or languages changed (with the reader's role). */
  'chat:updated': (event: ChatEvent) => void;
  /** The chat is gone, or the reader left or was removed: stop showing it. */
  'chat:removed': (event: ChatRef) => void;
  /** The reader read up to a message (in any of their tabs or devices): their unread counts follow. */
  'chat:read': (event: { chatId: number; lastReadMessage: number | null }) => void;
  /** Other members read further (“seen by”): only to readers who share their own receipts. */
  'receipts': (event: ReceiptsEvent) => void;
  /** Members came online, went away or offline. */
  'presence': (event: PresenceEvent) => void;
  /** Members were added, removed or changed role: reload the members list. */
  'members:changed': (event: ChatRef) => void;
  'typing': (event: TypingEvent) => void;
  /** A new utterance, as this listener gets it (transcribing at first). */
  'segment:created': (event: SegmentEvent) => void;
  /** A step of the pipeline finished for this listener (transcript, translation, voice): replace by id. */
  'segment:rendered': (event: SegmentEvent) => void;
  /** The speaker corrected the transcript (or the listener changed its tone). */
  'segment:edited': (event: SegmentEvent) => void;
  /** Someone is speaking: their words so far for this listener, updated in place (interpreting.ts). */
  'segment:partial': (event: PartialSegmentEvent) => void;
  /** A participant was removed for good with their utterances: drop these. */
  'segments:deleted': (event: SegmentsDeletedEvent) => void;
  /** The room's details or state changed (with the reader's role): e.g. Live, so ask for an lkToken. */
  'room:updated': (event: RoomEvent) => void;
  /** The room is gone, or the reader left or was removed. */
  'room:removed': (event: RoomRef) => void;
  'participants:changed': (event: RoomRef) => void;
  /**
   * Someone entered the call: they will send an offer. `returning`: they are back after the others
   * were told they dropped; a connection to them still carrying media stays, otherwise either side
   * offers a new one (on a clash, the lower participant id's offer wins).
   */
  'call:peer-joined': (event: { roomId: number; peer: CallPeer; returning?: true }) => void;
  /**
   * Someone left the call (or was removed): close their connection. `dropped`: their live
   * connection went and did not come back within MESH.rejoinGraceMs; a peer connection to them
   * that still carries media may stay until it fails (they may be back, under a slow server).
   */
  'call:peer-left': (event: { roomId: number; participantId: number; dropped?: true }) => void;
  'call:signal': (event: { roomId: number; from: number; signal: CallSignal }) => void;
  /** This tab is out of the call: the call ended, the reader was removed, or joined it from elsewhere. */
  'call:ended': (event: { roomId: number; reason: 'ended' | 'removed' | 'elsewhere' }) => void;
}
