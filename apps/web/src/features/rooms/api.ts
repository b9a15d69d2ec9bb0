// The calls of the room screens (spec section 7 "Rooms"): query keys, query options and the
// mutations' fetchers. As in the chats: queries turn a handled failure into an error state,
// mutations resolve with undefined (the catalogue showed a toast) or throw FieldErrors for forms.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { LIMITS, type RoomRole, type RoomState } from '@parla/contract/constants';
import type { Glossary, GlossaryApply, GlossaryEntry } from '@parla/contract/glossary';
import type { GlossaryApi } from '../../components/glossary';
import type {
  ManageParticipant,
  Participant,
  ParticipantPatchRequest,
  ParticipantsPage,
  Room,
  RoomCreateRequest,
  RoomPutRequest,
  RoomsPage,
  Segment,
  SegmentsPage,
} from '@parla/contract/rooms';
import { apiHref, call, endpoint, fetchOrThrow, http } from '../../lib/api';
import { newClientId } from '../../lib/client-id';
import { HttpError } from '../../lib/error-catalogue';
import { linkParam, reportFailure, retryUnhandled, succeeded } from '../../lib/queries';

export const ROOM_PAGE_SIZE = 20;
export const SEGMENT_PAGE_SIZE = 50;
export const PARTICIPANT_PAGE_SIZE = 20;

import { roomKeys } from '../../lib/query-keys';

export { roomKeys };

/** The `offset` of the page after `page`, read from its `next` link (none: the last page). */
export function nextOffset(page: { next: string | null; results: unknown[] }, previousOffset: number): number | undefined {
  if (!page.next) return undefined;
  const fromLink = Number(linkParam(page.next, 'offset'));
  if (Number.isInteger(fromLink) && fromLink > previousOffset) return fromLink;
  return page.results.length ? previousOffset + page.results.length : undefined;
}

export const roomListQuery = infiniteQueryOptions({
  queryKey: roomKeys.list(),
  queryFn: ({ pageParam }) => fetchOrThrow<RoomsPage>(endpoint('GET', '/api/rooms/', { query: { limit: ROOM_PAGE_SIZE, offset: pageParam } })),
  initialPageParam: 0,
  getNextPageParam: (page, _pages, offset) => nextOffset(page, offset),
  retry: retryUnhandled,
});

export const roomQuery = (roomId: number) =>
  queryOptions({
    queryKey: roomKeys.detail(roomId),
    queryFn: () => fetchOrThrow<Room>(endpoint('GET', '/api/rooms/{id}/', { path: { id: roomId } })),
    retry: retryUnhandled,
  });

export const participantQuery = (roomId: number) =>
  queryOptions({
    queryKey: roomKeys.participant(roomId),
    queryFn: () => fetchOrThrow<Participant>(endpoint('GET', '/api/rooms/{roomId}/participant/', { path: { roomId } })),
    retry: retryUnhandled,
  });

export const participantsQuery = (roomId: number, query: { pageIndex: number; q: string }) =>
  queryOptions({
    queryKey: roomKeys.participantsPage(roomId, query),
    queryFn: () =>
      fetchOrThrow<ParticipantsPage>(
        endpoint('GET', '/api/rooms/{roomId}/participants/', {
          path: { roomId },
          query: { pageIndex: query.pageIndex, pageSize: PARTICIPANT_PAGE_SIZE, q: query.q || undefined },
        }),
      ),
    retry: retryUnhandled,
  });

/** The transcript, oldest first, page after page by the `next` links. */
export const segmentsQuery = (roomId: number) =>
  infiniteQueryOptions({
    queryKey: roomKeys.segments(roomId),
    queryFn: ({ pageParam }) =>
      fetchOrThrow<SegmentsPage>(endpoint('GET', '/api/rooms/{roomId}/segments/', { path: { roomId }, query: { limit: SEGMENT_PAGE_SIZE, offset: pageParam } })),
    initialPageParam: 0,
    getNextPageParam: (page, _pages, offset) => nextOffset(page, offset),
    retry: retryUnhandled,
  });

/** Where the whole transcript downloads (cookies authenticate the download). */
export const transcriptUrl = (roomId: number, format: 'txt' | 'srt') => apiHref('/api/rooms/{roomId}/transcript/', { path: { roomId }, query: { format } });

// ---- mutations ----

export const createRoom = (body: RoomCreateRequest) => call<Room>(endpoint('POST', '/api/rooms/', { body }));

export const updateRoom = (roomId: number, body: RoomPutRequest) => call<Room>(endpoint('PUT', '/api/rooms/{id}/', { path: { id: roomId }, body }));

export const deleteRoom = (roomId: number) => succeeded(endpoint('DELETE', '/api/rooms/{id}/', { path: { id: roomId } }));

export const changeRoomState = (roomId: number, state: RoomState) =>
  call<Room>(endpoint('PATCH', '/api/rooms/{id}/state/', { path: { id: roomId }, body: { state } }));

export const updateParticipant = (roomId: number, body: ParticipantPatchRequest) =>
  call<Participant>(endpoint('PATCH', '/api/rooms/{roomId}/participant/', { path: { roomId }, body }));

export const leaveRoom = (roomId: number, permanent: boolean) =>
  succeeded(endpoint('DELETE', '/api/rooms/{roomId}/participant/', { path: { roomId }, query: { permanent } }));

export const addParticipant = (roomId: number, body: { user: string; roomRole: RoomRole }) =>
  call<ManageParticipant>(endpoint('POST', '/api/rooms/{roomId}/participants/', { path: { roomId }, body }));

export const changeParticipantRole = (roomId: number, participantId: number, roomRole: RoomRole) =>
  call<ManageParticipant>(endpoint('PATCH', '/api/rooms/{roomId}/participants/{id}/', { path: { roomId, id: participantId }, body: { roomRole } }));

export const removeParticipant = (roomId: number, participantId: number, permanent: boolean) =>
  succeeded(endpoint('DELETE', '/api/rooms/{roomId}/participants/{id}/', { path: { roomId, id: participantId }, query: { permanent } }));

export const removeParticipants = (roomId: number, ids: number[], permanent: boolean) =>
  succeeded(endpoint('POST', '/api/rooms/{roomId}/participants/multi_delete/', { path: { roomId }, body: { ids, permanent } }));

export const editSegment = (roomId: number, segmentId: number, transcript: string) =>
  call<Segment>(endpoint('PATCH', '/api/rooms/{roomId}/segments/{id}/', { path: { roomId, id: segmentId }, body: { transcript } }));

/** Corrects the listener's rendering of an utterance for everyone hearing it the same way (spoken again; the machine's text is kept). */
export const correctSegmentRendering = (roomId: number, segmentId: number, transcript: string) =>
  call<Segment>(endpoint('PUT', '/api/rooms/{roomId}/segments/{id}/rendering/', { path: { roomId, id: segmentId }, body: { transcript } }));

/** The machine's text again in place of a correction (204: the live event brings the segment). */
export const restoreSegmentRendering = (roomId: number, segmentId: number) =>
  succeeded(endpoint('DELETE', '/api/rooms/{roomId}/segments/{id}/rendering/', { path: { roomId, id: segmentId } }));

/** Every listener's correction of an utterance withdrawn (the owner; 204: the live events bring the segment). */
export const withdrawSegmentCorrections = (roomId: number, segmentId: number) =>
  succeeded(endpoint('DELETE', '/api/rooms/{roomId}/segments/{id}/rendering/', { path: { roomId, id: segmentId }, query: { everyone: true } }));

/** The room's glossary calls, for the shared glossary dialog. */
export const roomGlossary = (roomId: number): GlossaryApi => ({
  key: roomKeys.glossary(roomId),
  load: () => fetchOrThrow<Glossary>(endpoint('GET', '/api/rooms/{roomId}/glossary/', { path: { roomId } })),
  add: (body) => call<GlossaryEntry>(endpoint('POST', '/api/rooms/{roomId}/glossary/', { path: { roomId }, body })),
  update: (id, body) => call<GlossaryEntry>(endpoint('PATCH', '/api/rooms/{roomId}/glossary/{id}/', { path: { roomId, id }, body })),
  remove: (id) => succeeded(endpoint('DELETE', '/api/rooms/{roomId}/glossary/{id}/', { path: { roomId, id } })),
  apply: () => call<GlossaryApply>(endpoint('POST', '/api/rooms/{roomId}/glossary/apply/', { path: { roomId } })),
});

/** Waits before the 2nd, 3rd and 4th try of an utterance whose upload failed for want of an answer or by a 5xx. */
export const UPLOAD_RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000, 9_000];

/** Worth sending again as it is: no answer, or a 5xx. A 4xx would be refused again (and a 401 ended the session). */
export const isRetryableUpload = (error: unknown) => error instanceof HttpError && (error.status === undefined || error.status >= 500);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One utterance (multipart `clientId`, `audio` and, given `spokenAt` (performance.now() when it
 * ended), `spokenAgoMs` measured at each try), tried again with the same `clientId` after no
 * answer or a 5xx (UPLOAD_RETRY_DELAYS_MS): the server stores it once however often it arrives
 * (a repeat answers 200 with the stored segment, a first 201). Undefined when refused or still
 * failing after the last try (the catalogue said why).
 */
export async function uploadSegment(
  roomId: number,
  audio: Blob,
  filename: string,
  options: { clientId?: string; spokenAt?: number; delays?: readonly number[]; wait?: (ms: number) => Promise<void> } = {},
): Promise<Segment | undefined> {
  const clientId = options.clientId ?? newClientId();
  const delays = options.delays ?? UPLOAD_RETRY_DELAYS_MS;
  const wait = options.wait ?? sleep;
  for (let attempt = 0; ; attempt++) {
    const form = new FormData();
    form.append('clientId', clientId);
    if (options.spokenAt !== undefined) form.append('spokenAgoMs', String(Math.min(LIMITS.segmentSpokenAgoMaxMs, Math.max(0, Math.round(performance.now() - options.spokenAt)))));
    form.append('audio', audio, filename);
    try {
      return await call<Segment>(endpoint('POST', '/api/rooms/{roomId}/segments/', { path: { roomId }, body: form, skipErrorCatalogue: true }));
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || !isRetryableUpload(error)) {
        reportFailure(error);
        return undefined;
      }
      await wait(delay);
    }
  }
}

/** Refreshes the session when due, so a download or an audio file (fetched by the browser with the cookie) is not refused. */
export const freshSession = () => http.ensureSession().catch(() => false);
