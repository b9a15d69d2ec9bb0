// Live delivery of one kind of topic (a chat, a room) to its readers, written once for both. A
// subscribed socket is in the topic's socket room (topic-wide events: deletions, member changes,
// typing) and in its reading group's room (language, tone, and for rooms the voice): an event about
// a piece of text is built once per group and sent to that group, so the work grows with the
// groups, not the readers. Membership is checked on every subscribe and enforced at once on
// removal, leaving and regrouping. The features keep only what is theirs (typing, room state) and
// how a view of their rows is built. A subscriber may also be in channels of the topic (say, the
// readers who share read receipts: `{kind}:{id}#receipts`), joined and left with the topic and
// kept when their group changes.
import type { ServerToClientEvents } from '@parla/contract/live';
import { userRoom, type LiveSocket, type Realtime } from '../../platform/realtime';

type EventName = keyof ServerToClientEvents;
type Payload<K extends EventName> = Parameters<ServerToClientEvents[K]>[0];

/** What a reader may answer to a subscription. */
type SubscribeAnswer = { ok: true } | { ok: false; error: 'not_found' | 'invalid' };

export interface AudienceOptions<Group> {
  /** The topic's kind: its socket rooms are `{kind}:{id}` and `{kind}:{id}:{group}`. */
  kind: 'chat' | 'room';
  /** The group's part of its socket room's name (equal groups, equal keys). */
  groupKey: (group: Group) => string;
  /** The caller as a subscriber when they may receive the topic (a joined member), else null. */
  membership: (topicId: number, userId: number) => Promise<Subscriber<Group> | null>;
  /** The topic's id in a subscribe or unsubscribe payload; null when the payload is not one. */
  parseRef: (payload: unknown) => number | null;
}

/** Who a subscribed socket is in the topic. */
export interface Subscriber<Group> {
  group: Group;
  memberId: number;
  /** How the others see them (nickname, alias). */
  name: string;
  /** The topic's channels they receive (see channelRoom). */
  channels?: readonly string[];
}

/** One recipient's own view of an event (their own message, their own tone for a segment). */
export interface OwnView<K extends EventName> {
  userId: number;
  payload: Payload<K>;
}

export function createAudience<Group>(realtime: Realtime, options: AudienceOptions<Group>) {
  const { io } = realtime;
  const { kind, groupKey, membership, parseRef } = options;
  const topicRoom = (topicId: number) => `${kind}:${topicId}`;
  const groupRoom = (topicId: number, group: Group) => `${kind}:${topicId}:${groupKey(group)}`;
  const channelRoom = (topicId: number, channel: string) => `${topicRoom(topicId)}#${channel}`;
  const isChannelOf = (topicId: number, name: string) => name.startsWith(`${topicRoom(topicId)}#`);
  const isRoomOf = (topicId: number, name: string) => name === topicRoom(topicId) || name.startsWith(`${topicRoom(topicId)}:`) || isChannelOf(topicId, name);
  const roomsOf = (topicId: number, subscriber: Subscriber<Group>) => [
    topicRoom(topicId),
    groupRoom(topicId, subscriber.group),
    ...(subscriber.channels ?? []).map((channel) => channelRoom(topicId, channel)),
  ];
  // Socket.IO types each event's listener apart; both kinds' subscribe events share one handler.
  const subscribeEvent = `${kind}:subscribe` as const;
  const unsubscribeEvent = `${kind}:unsubscribe` as const;
  const handlers: ((socket: LiveSocket, topicId: number, subscriber: Subscriber<Group>) => void)[] = [];

  async function subscribe(socket: LiveSocket, payload: unknown): Promise<SubscribeAnswer> {
    const topicId = parseRef(payload);
    if (topicId === null) return { ok: false, error: 'invalid' };
    const subscriber = await membership(topicId, socket.data.userId).catch(() => null);
    if (!subscriber) {
      // No longer the caller's (a connection that came back just after a removal): out of its rooms.
      for (const name of [...socket.rooms]) if (isRoomOf(topicId, name)) void socket.leave(name);
      return { ok: false, error: 'not_found' };
    }
    // Joined before the stale rooms are left, with no wait between: no event falls in a gap.
    const rooms = roomsOf(topicId, subscriber);
    void socket.join(rooms);
    for (const name of [...socket.rooms]) if (isRoomOf(topicId, name) && !rooms.includes(name)) void socket.leave(name);
    for (const handler of handlers) handler(socket, topicId, subscriber);
    return { ok: true };
  }

  function unsubscribe(socket: LiveSocket, payload: unknown) {
    const topicId = parseRef(payload);
    if (topicId === null) return;
    for (const name of socket.rooms) if (isRoomOf(topicId, name)) void socket.leave(name);
  }

  // A dropped connection gets its rooms back (platform/realtime.ts) only while each topic is still the
  // user's, in the same reading group: else it starts afresh and refetches.
  const topicPattern = new RegExp(`^${kind}:(\\d+)$`);
  realtime.onRecovery(async (userId, rooms) => {
    for (const name of rooms) {
      const match = topicPattern.exec(name);
      if (!match) continue;
      const topicId = Number(match[1]);
      const subscriber = await membership(topicId, userId);
      if (!subscriber) return false;
      const now = roomsOf(topicId, subscriber);
      // The same group and channels as when it dropped (a channel left since must not come back).
      if (!now.every((name) => rooms.has(name)) || [...rooms].some((name) => isRoomOf(topicId, name) && !now.includes(name))) return false;
    }
    return true;
  });

  realtime.onConnection((socket) => {
    const on = socket.on.bind(socket) as (event: string, listener: (...args: unknown[]) => void) => void;
    on(subscribeEvent, (payload, ack) => {
      const answer = typeof ack === 'function' ? (ack as (value: SubscribeAnswer) => void) : () => undefined;
      void subscribe(socket, payload).then(answer);
    });
    on(unsubscribeEvent, (payload) => unsubscribe(socket, payload));
  });

  /**
   * Moves a user's subscribed sockets of a topic: out of every room of it, and into `rooms`; with
   * `keepChannels`, the channels they are in stay theirs.
   */
  async function moveSockets(userId: number, topicId: number, rooms: string[], keepChannels = false) {
    const sockets = await io.in(userRoom(userId)).fetchSockets();
    for (const socket of sockets) {
      if (!socket.rooms.has(topicRoom(topicId))) continue;
      if (rooms.length) socket.join(rooms);
      for (const name of [...socket.rooms]) {
        if (isRoomOf(topicId, name) && !rooms.includes(name) && !(keepChannels && isChannelOf(topicId, name))) socket.leave(name);
      }
    }
  }

  const emit = <K extends EventName>(target: ReturnType<typeof io.to>, event: K, payload: Payload<K>) =>
    (target.emit as (event: K, payload: Payload<K>) => boolean)(event, payload);

  return {
    /** Whether this socket is subscribed to the topic now (not removed since). */
    isSubscribed: (socket: LiveSocket, topicId: number) => socket.rooms.has(topicRoom(topicId)),

    /** Called after each accepted subscription (a feature's per-socket state, such as typing). */
    onSubscribe(handler: (socket: LiveSocket, topicId: number, subscriber: Subscriber<Group>) => void) {
      handlers.push(handler);
    },

    /**
     * An event built once per reading group and sent to that group's subscribers, but not to the
     * users who get a view of their own (`own`: the author, a reader with their own tone), who get
     * theirs on their user room (every tab and device of theirs).
     */
    fanOut<K extends EventName>(
      event: K,
      topicId: number,
      groups: readonly Group[],
      view: (group: Group) => Payload<K>,
      own: readonly OwnView<K>[] = [],
      /**
       * Groups whose views come out the same (the feature knows: say a new message nobody's
       * rendering concerns yet) share a key: their view is encoded and sent once, to all their
       * rooms together (a socket is in one group's room of a topic). Undefined: a view of its own.
       */
      shareKey?: (group: Group, payload: Payload<K>) => string | undefined,
    ) {
      const except = own.map((item) => userRoom(item.userId));
      const shared = new Map<string, { rooms: string[]; payload: Payload<K> }>();
      for (const group of groups) {
        const payload = view(group);
        const key = shareKey?.(group, payload);
        if (key === undefined) {
          emit(io.to(groupRoom(topicId, group)).except(except), event, payload);
          continue;
        }
        const found = shared.get(key);
        if (found) found.rooms.push(groupRoom(topicId, group));
        else shared.set(key, { rooms: [groupRoom(topicId, group)], payload });
      }
      for (const { rooms, payload } of shared.values()) emit(io.to(rooms).except(except), event, payload);
      for (const item of own) emit(io.to(userRoom(item.userId)), event, item.payload);
    },

    /** An event for every subscriber of the topic, whatever their group (optionally not to one user's sockets). */
    announce<K extends EventName>(topicId: number, event: K, payload: Payload<K>, exceptUserId?: number) {
      const target = io.to(topicRoom(topicId));
      emit(exceptUserId === undefined ? target : target.except(userRoom(exceptUserId)), event, payload);
    },

    /** An event from one subscriber's socket to the topic's other subscribers (none of its user's own tabs). */
    toSubscribersExcept<K extends EventName>(socket: LiveSocket, topicId: number, event: K, payload: Payload<K>) {
      emit(socket.to(topicRoom(topicId)).except(userRoom(socket.data.userId)) as unknown as ReturnType<typeof io.to>, event, payload);
    },

    /** An event for these users' every tab, subscribed or not (their own view of the topic). */
    toUsers<K extends EventName>(event: K, items: readonly OwnView<K>[]) {
      for (const item of items) emit(io.to(userRoom(item.userId)), event, item.payload);
    },

    /** These users no longer receive the topic: told so (`event`), and out of its rooms at once. */
    async cutOff<K extends EventName>(topicId: number, userIds: readonly number[], event: K, payload: Payload<K>) {
      for (const userId of userIds) {
        emit(io.to(userRoom(userId)), event, payload);
        await moveSockets(userId, topicId, []);
      }
    },

    /** A reader now reads in another group: their subscribed sockets move to it (their channels stay). */
    async regroup(userId: number, topicId: number, group: Group) {
      await moveSockets(userId, topicId, [topicRoom(topicId), groupRoom(topicId, group)], true);
    },

    /** An event for the topic's subscribers in a channel. */
    toChannel<K extends EventName>(topicId: number, channel: string, event: K, payload: Payload<K>) {
      emit(io.to(channelRoom(topicId, channel)), event, payload);
    },

    /** A user's sockets now receive a channel, or no longer do, in every topic of this kind they are subscribed to. */
    async setChannel(userId: number, channel: string, on: boolean) {
      const sockets = await io.in(userRoom(userId)).fetchSockets();
      for (const socket of sockets) {
        for (const name of [...socket.rooms]) {
          const match = topicPattern.exec(name);
          if (!match) continue;
          const room = channelRoom(Number(match[1]), channel);
          if (on) socket.join(room);
          else socket.leave(room);
        }
      }
    },
  };
}

export type Audience<Group> = ReturnType<typeof createAudience<Group>>;
