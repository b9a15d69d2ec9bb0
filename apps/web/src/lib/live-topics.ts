// What the live connection (live.ts) carries, apart from its state: the topics a page watches (a
// chat, a room) and their subscription keys, the listeners' shape, and the server's events relayed
// to them. Types and constants only: nothing here opens a connection.
import type { ServerToClientEvents } from '@parla/contract/live';

export type EventName = keyof ServerToClientEvents;

/** What can be watched: a chat or a room, each subscribed on its own. */
export type TopicKind = 'chat' | 'room';
export interface Topic {
  kind: TopicKind;
  id: number;
}

export type LiveListener = { [K in EventName]?: ServerToClientEvents[K] } & {
  /**
   * Data fetched before `at` may miss events: after a (re)connection every watched chat and room
   * is subscribed again (no `topic`: all of them); one watched while connected gives itself.
   */
  resync?: (at: number, topic?: Topic) => void;
  /** The server refused a watched chat or room (`not_found`): the reader is no longer in it. */
  refused?: (topic: Topic) => void;
};

/** A topic's key (`chat:{id}` / `room:{id}`) in the watch counts and subscriptions. */
export const keyOf = (kind: TopicKind, id: number) => `${kind}:${id}`;
export const parseKey = (key: string): Topic => {
  const [kind, id] = key.split(':');
  return { kind: kind as TopicKind, id: Number(id) };
};

/** Every server event passed on to the listeners (all of them: checked below). */
const EVENT_LIST = [
  'message:created',
  'message:rendered',
  'message:edited',
  'message:deleted',
  'message:reactions',
  'message:pinned',
  'messages:deleted',
  'chat:updated',
  'chat:removed',
  'chat:read',
  'members:changed',
  'receipts',
  'presence',
  'typing',
  'segment:created',
  'segment:rendered',
  'segment:edited',
  'segment:partial',
  'segments:deleted',
  'room:updated',
  'room:removed',
  'participants:changed',
  'call:peer-joined',
  'call:peer-left',
  'call:signal',
  'call:ended',
] as const satisfies readonly EventName[];
/** A server event left out of the list does not compile (it would never reach a listener). */
const everyEvent: [Exclude<EventName, (typeof EVENT_LIST)[number]>] extends [never] ? true : Exclude<EventName, (typeof EVENT_LIST)[number]> = true;
void everyEvent;
export const EVENTS: readonly EventName[] = EVENT_LIST;
