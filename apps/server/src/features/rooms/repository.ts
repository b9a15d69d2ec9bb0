// Data access of live rooms: rooms, participants, segments, their renderings and voices. Every
// query of a room's content is scoped by room id; the service has checked participation before.
// Each use case has its part beside this file (*-repository.ts); this composes them into one.
import type { Db } from '../../platform/db/index';
import { createParticipantsRepository } from './participants-repository';
import { createRenderingsRepository } from './renderings-repository';
import { createSegmentsRepository } from './segments-repository';

export { namesOf } from './repository-shared';
export type {
  ListenerRow,
  ParticipantRow,
  ParticipantView,
  PipelineState,
  RoomRow,
  SegmentContext,
  SegmentRenderingRow,
  SegmentRow,
  SegmentVoiceRow,
  SegmentWithSpeaker,
  WithdrawnCorrection,
} from './repository-shared';

export function createRoomsRepository(db: Db) {
  return {
    ...createParticipantsRepository(db),
    ...createSegmentsRepository(db),
    ...createRenderingsRepository(db),
  };
}

export type RoomsRepository = ReturnType<typeof createRoomsRepository>;
