// The rooms service's shared parts (service.ts composes the parts): what the service is given,
// what every part starts from (a participation, a room's view, a page link), and small helpers.
import { randomBytes } from 'node:crypto';
import type { MemberState } from '@parla/contract/constants';
import type { Room } from '@parla/contract/rooms';
import type { FastifyBaseLogger } from 'fastify';
import type { Jobs } from '../../platform/jobs';
import type { SynthesisProvider, TranscriptionProvider, Utterance } from '../../domain/rendering/speech/provider';
import type { Storage } from '../../platform/storage';
import type { Translator } from '../../domain/rendering/translation/index';
import type { InvitationMail } from '../../domain/invitations/invitations';
import type { Push } from '../../domain/delivery/push';
import type { Quotas } from '../../platform/quotas';
import type { Glossaries } from '../../domain/glossary/glossary';
import type { UserDirectory } from '../../domain/people/users';
import type { Calls } from './livekit';
import type { RoomsLive } from './live';
import type { ParticipantRow, RoomRow, RoomsRepository } from './repository';
import type { SegmentPresenter } from './segments';

export interface RoomsDeps {
  repo: RoomsRepository;
  users: UserDirectory;
  invitations: InvitationMail;
  live: RoomsLive;
  presenter: SegmentPresenter;
  translator: Translator;
  transcription: TranscriptionProvider;
  synthesis: SynthesisProvider;
  inspect: (data: Buffer) => Promise<Utterance | null>;
  jobs: Jobs;
  /** Recordings and voices (private: served through the audio route after a participation check). */
  recordings: Storage;
  avatars: Storage;
  /** Tokens for the call, and the RoomService calls that take access back (never throw). */
  /** A call's media: LiveKit tokens, and the endings of LiveKit and mesh calls alike. */
  calls: Calls;
  push: Push;
  glossaries: Glossaries;
  quotas: Quotas;
  limits: { audioMaxBytes: number; audioMaxSeconds: number };
  /** A first render's job waits this long for its process before a worker may take it; a failed first render hands it over after `retryDelaySeconds`. */
  renderLease: { seconds: number; retryDelaySeconds: number };
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** What the parts of the service share: its deps, and the helpers of service.ts every part starts from. */
export interface RoomsShared {
  deps: RoomsDeps;
  /** The caller's participation (`load` in service.ts): 404 for strangers and those who left, and for those only invited unless `invited`. */
  load: (roomId: number, userId: number, options?: { invited?: boolean }) => Promise<{ room: RoomRow; participant: ParticipantRow }>;
  /** A room as a participant sees it (`presentRoom` in service.ts). */
  presentRoom: (room: RoomRow, participant: Pick<ParticipantRow, 'roomRole' | 'joinedAt' | 'invitedBy'>) => Room;
  /** The links of a page of the list at `urlPath`. */
  link: (urlPath: string) => (query: Record<string, string | number | undefined>) => string;
}

export const randomName = () => randomBytes(12).toString('hex');
export const stateOf = (participant: Pick<ParticipantRow, 'joinedAt'>): MemberState => (participant.joinedAt ? 'joined' : 'invited');
