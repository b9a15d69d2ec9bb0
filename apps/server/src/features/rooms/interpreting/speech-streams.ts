// The speech streams of this process, by room and participant, and the WebSocket they arrive on
// (SPEECH_STREAM.path): a removal or a room's end cuts its streams here at once; in other
// processes each stream reads its speaker's participation again within GATE_RECHECK_MS.
import type { FastifyBaseLogger } from 'fastify';
import { SPEECH_STREAM, SPEECH_STREAM_CLOSE } from '@parla/contract/interpreting';
import type { Realtime } from '../../../platform/realtime';
import { STREAM_BYTES_PER_MS } from '../../../domain/rendering/speech/streaming';
import { runSpeakerStream, type SpeakerStreamDeps } from './speaker-stream';

interface Cuttable {
  cut(code: number): void;
}

/** The room id of a speech stream's path, or null for another path. */
export function streamRoomId(pathname: string): number | null {
  const [before, after] = SPEECH_STREAM.path.split('{roomId}') as [string, string];
  if (!pathname.startsWith(before) || !pathname.endsWith(after)) return null;
  const id = pathname.slice(before.length, pathname.length - after.length);
  return /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : null;
}

export function createSpeechStreams(realtime: Realtime, deps: Omit<SpeakerStreamDeps, 'register'>, log: FastifyBaseLogger) {
  const byRoom = new Map<number, Map<number, Set<Cuttable>>>();

  function register(roomId: number, participantId: number, stream: Cuttable): () => void {
    const room = byRoom.get(roomId) ?? new Map<number, Set<Cuttable>>();
    byRoom.set(roomId, room);
    const mine = room.get(participantId) ?? new Set<Cuttable>();
    room.set(participantId, mine);
    mine.add(stream);
    return () => {
      mine.delete(stream);
      if (mine.size === 0) room.delete(participantId);
      if (room.size === 0) byRoom.delete(roomId);
    };
  }

  realtime.acceptSockets(
    streamRoomId,
    (socket, user, roomId) => {
      runSpeakerStream(socket, roomId, user.userId, { ...deps, register }).catch((error: unknown) => {
        log.error({ err: error, roomId }, 'a speech stream failed');
        socket.close(SPEECH_STREAM_CLOSE.unavailable, 'failed');
      });
    },
    // A frame a little past the longest is refused with a message (speaker-stream.ts); far past it, the socket closes (1009).
    { maxPayload: Math.ceil(SPEECH_STREAM.frameMaxMs * STREAM_BYTES_PER_MS * 4) },
  );

  const cutAll = (roomId: number, participantIds: readonly number[] | undefined, code: number) => {
    const room = byRoom.get(roomId);
    if (!room) return;
    for (const [participantId, streams] of [...room]) {
      if (participantIds && !participantIds.includes(participantId)) continue;
      for (const stream of [...streams]) stream.cut(code);
    }
  };

  return {
    /** Participants removed or gone: their streams stop now, what they were saying dropped. */
    expel: (roomId: number, participantIds: readonly number[]) => cutAll(roomId, participantIds, SPEECH_STREAM_CLOSE.notFound),
    /** The room ended or was deleted. */
    end: (roomId: number) => cutAll(roomId, undefined, SPEECH_STREAM_CLOSE.notLive),
  };
}
