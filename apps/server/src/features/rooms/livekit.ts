// LiveKit access tokens for the call (product.md): room `room-{id}`, identity `participant-{id}`,
// name = alias, join/publish/subscribe grants, valid for a few hours; issued only while the room
// is Live and never to one who left or was removed (the caller checks both).
import { AccessToken } from 'livekit-server-sdk';

/** How long a token lets its holder join; a longer call gets a new one from the participant call. */
export const LIVEKIT_TOKEN_TTL_SECONDS = 4 * 60 * 60;

export const livekitRoomName = (roomId: number) => `room-${roomId}`;
export const livekitIdentity = (participantId: number) => `participant-${participantId}`;

export function createLivekitTokens(options: { apiKey: string; apiSecret: string }) {
  return {
    async mint(roomId: number, participant: { id: number; alias: string }): Promise<string> {
      const token = new AccessToken(options.apiKey, options.apiSecret, {
        identity: livekitIdentity(participant.id),
        name: participant.alias,
        ttl: LIVEKIT_TOKEN_TTL_SECONDS,
      });
      token.addGrant({ room: livekitRoomName(roomId), roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
      return token.toJwt();
    },
  };
}

export type LivekitTokens = ReturnType<typeof createLivekitTokens>;
