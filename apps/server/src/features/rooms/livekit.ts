// The LiveKit side of a room's call (product.md): access tokens for room `room-{id}`, identity
// `participant-{id}`, name = alias, join/publish/subscribe grants, issued only while the room is
// Live and never to one who left or was removed (the caller checks both); and the RoomService
// calls that take access back at once: a participant removed or leaving is disconnected from the
// LiveKit room, a room that ends or is deleted is closed on LiveKit. Those calls never fail the
// user's request: a LiveKit server that answers an error, is down or hangs (REQUEST_TIMEOUT_SECONDS)
// is logged and the request goes on. Without LIVEKIT_URL they do nothing.
import type { FastifyBaseLogger } from 'fastify';
import { AccessToken, RoomServiceClient } from 'livekit-server-sdk';

/**
 * How long a token lets its holder join (connect) the call. LiveKit checks it only when
 * connecting: a connected client gets refreshed tokens from the LiveKit server for its reconnects,
 * so a call lasts as long as it lasts; a token kept by someone who lost access is worthless after
 * this. Opening the call again asks the participant call for a new one.
 */
export const LIVEKIT_TOKEN_TTL_SECONDS = 10 * 60;

/** How long a RoomService call may take before the request that made it goes on without it. */
const REQUEST_TIMEOUT_SECONDS = 3;

export const livekitRoomName = (roomId: number) => `room-${roomId}`;
export const livekitIdentity = (participantId: number) => `participant-${participantId}`;

/** RoomService speaks HTTP at the address clients reach over WebSocket. */
const httpForm = (url: string) => url.replace(/^ws(s?):\/\//i, 'http$1://');

export function createLivekit(options: { url: string | undefined; apiKey: string; apiSecret: string; log: FastifyBaseLogger }) {
  const { log } = options;
  const rooms = options.url
    ? new RoomServiceClient(httpForm(options.url), options.apiKey, options.apiSecret, { requestTimeout: REQUEST_TIMEOUT_SECONDS, failover: false })
    : undefined;

  /** One RoomService call; its failure is logged, never thrown. */
  async function attempt(what: string, fields: Record<string, unknown>, call: (client: RoomServiceClient) => Promise<void>): Promise<void> {
    if (!rooms) return;
    try {
      await call(rooms);
    } catch (error) {
      // Not there (not in the call, or the room already closed): nothing to take back.
      if ((error as { code?: unknown }).code === 'not_found') log.debug({ err: error, ...fields }, `LiveKit: nothing to ${what}`);
      else log.warn({ err: error, ...fields }, `LiveKit could not ${what}`);
    }
  }

  return {
    /** Where clients connect (null: no LiveKit configured). */
    url: options.url ?? null,

    async mint(roomId: number, participant: { id: number; alias: string }): Promise<string> {
      const token = new AccessToken(options.apiKey, options.apiSecret, {
        identity: livekitIdentity(participant.id),
        name: participant.alias,
        ttl: LIVEKIT_TOKEN_TTL_SECONDS,
      });
      token.addGrant({ room: livekitRoomName(roomId), roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
      return token.toJwt();
    },

    /** Disconnects these participants from the room's call (all at once). */
    async removeParticipants(roomId: number, participantIds: number[]): Promise<void> {
      await Promise.all(
        participantIds.map((participantId) =>
          attempt('remove a participant from the call', { roomId, participantId }, (client) => client.removeParticipant(livekitRoomName(roomId), livekitIdentity(participantId))),
        ),
      );
    },

    /** Closes the room's call: everyone in it is disconnected. */
    async closeRoom(roomId: number): Promise<void> {
      await attempt('close the call', { roomId }, (client) => client.deleteRoom(livekitRoomName(roomId)));
    },
  };
}

export type Livekit = ReturnType<typeof createLivekit>;
/** What the rooms do with a call's media: LiveKit's tokens, and the endings both kinds of call obey (features/rooms/index.ts). */
export type Calls = Livekit;
