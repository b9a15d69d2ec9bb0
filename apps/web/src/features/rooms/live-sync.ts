// Live events into the query cache: one listener for the room screens, installed while one is
// shown. Segments are merged by id (a repeated or late event never shows one twice or goes back),
// a room's new details or state reach its page and every list, a state change asks for the own
// participation again (the LiveKit token comes and goes with Live), and after a reconnection
// everything fetched before it is fetched again.
import { useEffect } from 'react';
import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { Participant, Room, RoomsPage } from '@parla/contract/rooms';
import { addLiveListener, watchRoom, type LiveListener } from '../../lib/live';
import { roomKeys } from './api';
import { removeSegments, upsertSegment, type SegmentPages } from './segments';

/** Rooms the reader is leaving or deleting: their `room:removed` is expected, not news. */
const leaving = new Set<number>();
export const expectRemoval = (roomId: number) => {
  leaving.add(roomId);
  return () => leaving.delete(roomId);
};
export const isRemovalExpected = (roomId: number) => leaving.has(roomId);

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
    roomRefused: forget,
    'participants:changed': ({ roomId }) => {
      void queryClient.invalidateQueries({ queryKey: roomKeys.participants(roomId) });
      // The reader's own role may be what changed (a hand-over).
      void queryClient.invalidateQueries({ queryKey: roomKeys.participant(roomId) });
      void queryClient.invalidateQueries({ queryKey: roomKeys.detail(roomId) });
    },
    resync: (at, chatId) => {
      // A chat newly watched is none of ours; after a reconnection everything is fetched again.
      if (chatId !== undefined) return;
      void queryClient.invalidateQueries({ queryKey: roomKeys.all, predicate: (query) => query.state.dataUpdatedAt < at });
    },
    roomResync: (at, roomId) => {
      void queryClient.invalidateQueries({ queryKey: roomKeys.room(roomId), predicate: (query) => query.state.dataUpdatedAt < at });
    },
  };
}

let installed = 0;
let uninstall: (() => void) | null = null;

/** Keeps the room queries in step with the live events while the calling page is shown. */
export function useRoomLiveSync() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (installed++ === 0) uninstall = addLiveListener(cacheSync(queryClient));
    return () => {
      if (--installed === 0) {
        uninstall?.();
        uninstall = null;
      }
    };
  }, [queryClient]);
}

/**
 * Receives the live events of these rooms while the calling page is shown. Give only rooms the
 * reader joined: the server refuses one they are only invited to (and a refusal means "gone").
 */
export function useWatchRooms(roomIds: readonly number[]) {
  const key = [...new Set(roomIds)].sort((a, b) => a - b).join(',');
  useEffect(() => {
    if (!key) return;
    const stops = key.split(',').map((id) => watchRoom(Number(id)));
    return () => stops.forEach((stop) => stop());
  }, [key]);
}
