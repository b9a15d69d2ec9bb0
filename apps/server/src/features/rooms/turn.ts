// TURN credentials for the call without a media server (issue 31): a TURN server relays media for
// people whose networks do not let them connect directly, so its credentials are an open relay in
// the wrong hands. They are made per participant entering a call, as the TURN REST API says
// (coturn's `use-auth-secret`): the username is the expiry time and who it is for, the password
// the base64 HMAC-SHA1 of the username with the secret shared with the TURN server. The server
// checks it on every request and refuses it once expired; nothing long-lived leaves this server.
import { createHmac } from 'node:crypto';
import type { CallIceServer } from '@parla/contract/live';

export interface TurnConfig {
  urls: string[];
  secret: string;
  ttlSeconds: number;
}

/** A credential of `subject` valid until `now` + the TTL (seconds since the epoch in the username). */
export function turnCredential(turn: TurnConfig, subject: string, now = Date.now()): CallIceServer & { username: string; credential: string } {
  const username = `${Math.floor(now / 1000) + turn.ttlSeconds}:${subject}`;
  const credential = createHmac('sha1', turn.secret).update(username).digest('base64');
  return { urls: turn.urls, username, credential };
}

/** The ICE servers one participant entering a call is given: the STUN servers, and the TURN server with a credential of their own. */
export function iceServersFor(stun: readonly CallIceServer[], turn: TurnConfig | undefined, participantId: number): CallIceServer[] {
  return turn ? [...stun, turnCredential(turn, `parla-${participantId}`)] : [...stun];
}
