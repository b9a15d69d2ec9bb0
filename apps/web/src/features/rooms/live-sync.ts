// How room events change the cached room data (installed by lib/live-sync.ts while a room screen
// is shown): segments are merged by id (a repeated or late event never shows one twice or goes
// back), a room's new details or state reach its page and every list, a state change asks for the
// own participation again (the LiveKit token comes and goes with Live), and after a reconnection
// everything fetched before it is fetched again.
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Participant, Room, RoomsPage } from '@parla/contract/rooms';
import type { LiveListener } from '../../lib/live';
import { expectRemoval as expectTopicRemoval, isRemovalExpected as isTopicRemovalExpected, useLiveSync, useWatch } from '../../lib/live-sync';
import { roomKeys } from './api';
import { removeSegments, upsertSegment, type SegmentPages } from './segments';

/** A room the reader is leaving or deleting: its `room:removed` is expected, not news. */
export const expectRemoval = (roomId: number) => expectTopicRemoval('room', roomId);
export const isRemovalExpected = (roomId: number) => isTopicRemovalExpected('room', roomId);

type RoomLists = RoomsPage | InfiniteData<RoomsPage, number>;

/** Every cached list of rooms (the home page's page and the room list's pages) changed room by room. */
export function mapRoomLists(data: RoomLists | undefined, change: (rooms: Room[]) => Room[]): RoomLists | undefined {
  if (!data) return data;
  if ('pages' in data) return { ...data, pages: data.pages.map((page) => ({ ...page, results: change(page.results) })) };
  return { ...data, results: change(data.results) };
}

/** The room as a list holds it (undefined: not there). */
const listed = (data: RoomLists | undefined, roomId: number): Room | undefined => {
  if (!data) return undefined;
  const results = 'pages' in data ? data.pages.flatMap((page) => page.results) : data.results;
  return results.find((room) => room.id === roomId);
};

function cacheSync(queryClient: QueryClient): LiveListener {
  const setSegments = (roomId: number, change: (data: SegmentPages | undefined) => SegmentPages | undefined) =>
    queryClient.setQueryData<SegmentPages>(roomKeys.segments(roomId), change);
  const forget = (roomId: number) => {
    queryClient.setQueriesData<RoomLists>({ queryKey: roomKeys.lists() }, (data) => mapRoomLists(data, (rooms) => rooms.filter((room) => room.id !== roomId)));
  };
  return {
    'segment:created': ({ roomId, segment }) => setSegments(roomId, (data) => upsertSegment(data, segment)),
    'segment:rendered': ({ roomId, segment }) => setSegments(roomId, (data) => upsertSegment(data, segment)),
    'segment:edited': ({ roomId, segment }) => setSegments(roomId, (data) => upsertSegment(data, segment)),
    'segments:deleted': ({ roomId, segmentIds }) => setSegments(roomId, (data) => removeSegments(data, segmentIds)),
    'room:updated': ({ room }) => {
      const before = queryClient.getQueryData<Room>(roomKeys.detail(room.id));
      queryClient.setQueryData<Room>(roomKeys.detail(room.id), room);
      const lists = queryClient.getQueriesData<RoomLists>({ queryKey: roomKeys.lists() });
      const held = lists.map(([, data]) => listed(data, room.id)).filter((item) => item !== undefined);
      // A room no list holds (the reader was just invited to it), or an invitation accepted (in
      // another tab; the lists put invitations first): ask for the lists again.
      if (held.length === 0 || held.some((item) => item.memberState !== room.memberState)) void queryClient.invalidateQueries({ queryKey: roomKeys.lists() });
      else queryClient.setQueriesData<RoomLists>({ queryKey: roomKeys.lists() }, (data) => mapRoomLists(data, (rooms) => rooms.map((item) => (item.id === room.id ? room : item))));
      // Live brings a LiveKit token; new languages may move the reader's own language; an
      // invitation accepted elsewhere changes the own participation.
      const participant = queryClient.getQueryData<Participant>(roomKeys.participant(room.id));
      if ((before && (before.state !== room.state || before.languages.join() !== room.languages.join())) || (participant && participant.memberState !== room.memberState)) {
        void queryClient.invalidateQueries({ queryKey: roomKeys.participant(room.id) });
      }
    },
    'room:removed': ({ roomId }) => forget(roomId),
    refused: (topic) => topic.kind === 'room' && forget(topic.id),
    'participants:changed': ({ roomId }) => {
      void queryClient.invalidateQueries({ queryKey: roomKeys.participants(roomId) });
      // The reader's own role may be what changed (a hand-over).
      void queryClient.invalidateQueries({ queryKey: roomKeys.participant(roomId) });
      void queryClient.invalidateQueries({ queryKey: roomKeys.detail(roomId) });
    },
    resync: (at, topic) => {
      // One room newly watched: its own queries; after a reconnection: everything (lists included).
      if (topic && topic.kind !== 'room') return;
      const queryKey = topic ? roomKeys.room(topic.id) : roomKeys.all;
      void queryClient.invalidateQueries({ queryKey, predicate: (query) => query.state.dataUpdatedAt < at });
    },
  };
}

/** Keeps the room queries in step with the live events while the calling page is shown. */
export const useRoomLiveSync = () => useLiveSync(cacheSync);

/** Receives the live events of these (joined) rooms while the calling page is shown. */
export const useWatchRooms = (roomIds: readonly number[]) => useWatch('room', roomIds);
