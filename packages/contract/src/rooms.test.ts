import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { LIMITS } from './constants';
import {
  SEGMENT_AUDIO_MIME_TYPES,
  manageParticipantSchema,
  participantAddRequestSchema,
  participantDeleteQuerySchema,
  participantPatchRequestSchema,
  participantPutRequestSchema,
  participantRoleRequestSchema,
  participantSchema,
  participantsMultiDeleteRequestSchema,
  participantsPageSchema,
  participantsQuerySchema,
  roomCreateRequestSchema,
  roomPatchRequestSchema,
  roomPutRequestSchema,
  roomSchema,
  roomStateRequestSchema,
  roomsPageSchema,
  roomsQuerySchema,
  segmentPatchRequestSchema,
  segmentPutRequestSchema,
  segmentSchema,
  segmentsPageSchema,
  segmentsQuerySchema,
  segmentUpdateRequestSchema,
} from './rooms';

function issuePaths(schema: z.ZodMiniType, input: unknown): string[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.map(String).join('.'));
}

const room = {
  id: 5,
  title: 'Weekly sync',
  description: null,
  languages: ['en', 'ja'],
  domain: 'ENGINEERING',
  created: '2024-05-01T10:00:00Z',
  modified: '2024-05-01T10:00:00Z',
  state: 3001,
  roomRole: 1001,
  memberState: 'joined',
  invitedBy: null,
};

const segment = {
  id: 77,
  audioFile: 'https://cdn.example.com/segments/77-en-f.ogg',
  created: '2024-05-01T10:15:00Z',
  isMe: false,
  language: 'en',
  rawSegment: { id: 77, language: 'ja', transcript: 'こんにちは', created: '2024-05-01T10:15:00Z' },
  speaker: { id: 9, alias: 'Ken', language: 'ja', roomRole: 1002, tone: 'DEFAULT', maleVoice: true },
  tone: 'DEFAULT',
  transcript: 'Hello',
  transcriptDiff: [],
  transcription: 'done',
  translation: 'done',
  speech: 'done',
  edited: false,
  duration: 2.5,
  correction: null,
  missedTerms: [],
};

describe('roomSchema', () => {
  it('parses a room', () => {
    expect(roomSchema.parse(room)).toEqual(room);
  });

  it('rejects unknown state, role and domain, naming the field', () => {
    expect(issuePaths(roomSchema, { ...room, state: 3004 })).toEqual(['state']);
    expect(issuePaths(roomSchema, { ...room, roomRole: 2001 })).toEqual(['roomRole']);
    expect(issuePaths(roomSchema, { ...room, domain: 'SPACE' })).toEqual(['domain']);
  });
});

describe('room create / put / patch', () => {
  it('create defaults the domain to DEFAULT and trims the title', () => {
    expect(roomCreateRequestSchema.parse({ title: ' Sync ', languages: ['en'] })).toEqual({
      title: 'Sync',
      languages: ['en'],
      domain: 'DEFAULT',
    });
    expect(
      roomCreateRequestSchema.parse({ title: 'Sync', description: 'Mondays', languages: ['en'], domain: 'LAW' }),
    ).toEqual({ title: 'Sync', description: 'Mondays', languages: ['en'], domain: 'LAW' });
  });

  it('create requires a title of 1 to 255 characters', () => {
    expect(issuePaths(roomCreateRequestSchema, {})).toEqual(['title']);
    expect(issuePaths(roomCreateRequestSchema, { title: '' })).toEqual(['title']);
    expect(issuePaths(roomCreateRequestSchema, { title: 'r'.repeat(256) })).toEqual(['title']);
  });

  it('create rejects unknown domain and languages', () => {
    expect(issuePaths(roomCreateRequestSchema, { title: 'A', domain: 'SPACE' })).toEqual(['domain']);
    expect(issuePaths(roomCreateRequestSchema, { title: 'A', languages: ['jp'] })).toEqual(['languages.0']);
  });

  it('put takes the full body like create', () => {
    expect(issuePaths(roomPutRequestSchema, { domain: 'ART' })).toEqual(['title']);
    expect(roomPutRequestSchema.parse({ title: 'A' }).domain).toBe('DEFAULT');
  });

  it('patch accepts partial bodies and does not invent a domain', () => {
    expect(roomPatchRequestSchema.parse({})).toEqual({});
    expect(roomPatchRequestSchema.parse({ description: null })).toEqual({ description: null });
    expect(roomPatchRequestSchema.parse({ title: 'New' })).not.toHaveProperty('domain');
    expect(issuePaths(roomPatchRequestSchema, { domain: 'SPACE' })).toEqual(['domain']);
  });
});

describe('room list and state', () => {
  it('query coerces limit and offset', () => {
    expect(roomsQuerySchema.parse({ limit: '5' })).toEqual({ limit: 5, offset: 0 });
    expect(roomsQuerySchema.parse({ limit: '20', offset: '40' })).toEqual({ limit: 20, offset: 40 });
    expect(issuePaths(roomsQuerySchema, { limit: '101' })).toEqual(['limit']);
  });

  it('page is a counted page of rooms', () => {
    const page = { count: 6, next: 'https://x.test/api/rooms/?limit=5&offset=5', previous: null, results: [room] };
    expect(roomsPageSchema.parse(page)).toEqual(page);
    expect(issuePaths(roomsPageSchema, { ...page, count: undefined })).toEqual(['count']);
  });

  it('state payload is {state} with a known state code', () => {
    expect(roomStateRequestSchema.parse({ state: 3002 })).toEqual({ state: 3002 });
    expect(issuePaths(roomStateRequestSchema, { state: 3000 })).toEqual(['state']);
    expect(issuePaths(roomStateRequestSchema, { state: '3002' })).toEqual(['state']);
    expect(issuePaths(roomStateRequestSchema, {})).toEqual(['state']);
  });
});

describe('own participation', () => {
  const participant = { id: 7, lkUrl: null, alias: 'Ana', roomRole: 1001, language: 'en', lkToken: null, maleVoice: false, tone: 'DEFAULT', memberState: 'joined' };

  it('parses a participant with and without a LiveKit token', () => {
    expect(participantSchema.parse(participant)).toEqual(participant);
    expect(participantSchema.parse({ ...participant, lkToken: 'eyJ.x.y' }).lkToken).toBe('eyJ.x.y');
    expect(issuePaths(participantSchema, { ...participant, maleVoice: 'no' })).toEqual(['maleVoice']);
  });

  it('put requires alias, language, maleVoice and tone and drops roomRole', () => {
    const body = { alias: ' Ana ', roomRole: 1001, language: 'en', maleVoice: true, tone: 'SERIOUS' };
    expect(participantPutRequestSchema.parse(body)).toEqual({ alias: 'Ana', language: 'en', maleVoice: true, tone: 'SERIOUS' });
    expect(issuePaths(participantPutRequestSchema, { alias: 'Ana', language: 'en', tone: 'DEFAULT' })).toEqual([
      'maleVoice',
    ]);
    expect(issuePaths(participantPutRequestSchema, { ...body, alias: '' })).toEqual(['alias']);
  });

  it('patch accepts a partial body', () => {
    expect(participantPatchRequestSchema.parse({ maleVoice: false })).toEqual({ maleVoice: false });
    expect(participantPatchRequestSchema.parse({})).toEqual({});
    expect(issuePaths(participantPatchRequestSchema, { language: 'xx' })).toEqual(['language']);
  });

  it('leave query reads permanent from the query string', () => {
    expect(participantDeleteQuerySchema.parse({ permanent: 'true' })).toEqual({ permanent: true });
    expect(participantDeleteQuerySchema.parse({})).toEqual({ permanent: false });
    expect(issuePaths(participantDeleteQuerySchema, { permanent: 'sure' })).toEqual(['permanent']);
  });
});

describe('managing participants', () => {
  const managed = { id: 40, user: 'ken@example.com', roomRole: 1002, alias: 'Ken', avatarImage: null, memberState: 'invited' };

  it('parses a managed participant and a counted page', () => {
    expect(manageParticipantSchema.parse(managed)).toEqual(managed);
    const page = { count: 1, next: null, previous: null, results: [managed] };
    expect(participantsPageSchema.parse(page)).toEqual(page);
    expect(issuePaths(participantsPageSchema, { ...page, results: [{ ...managed, roomRole: 2003 }] })).toEqual([
      'results.0.roomRole',
    ]);
  });

  it('query coerces pageIndex and pageSize', () => {
    expect(participantsQuerySchema.parse({ pageIndex: '0', pageSize: '100' })).toEqual({ pageIndex: 0, pageSize: 100 });
  });

  it('add takes an e-mail and a room role', () => {
    expect(participantAddRequestSchema.parse({ user: 'ken@example.com', roomRole: 1002 })).toEqual({
      user: 'ken@example.com',
      roomRole: 1002,
    });
    expect(issuePaths(participantAddRequestSchema, { user: 'ken(at)example.com', roomRole: 1002 })).toEqual(['user']);
    expect(issuePaths(participantAddRequestSchema, { user: 'ken@example.com', roomRole: 1003 })).toEqual([
      'roomRole',
    ]);
  });

  it('role update takes only a known room role', () => {
    expect(participantRoleRequestSchema.parse({ roomRole: 1001 })).toEqual({ roomRole: 1001 });
    expect(issuePaths(participantRoleRequestSchema, { roomRole: 2001 })).toEqual(['roomRole']);
  });

  it('multi delete takes a non-empty id list, permanent defaulting to false', () => {
    expect(participantsMultiDeleteRequestSchema.parse({ ids: [1, 2], permanent: true })).toEqual({
      ids: [1, 2],
      permanent: true,
    });
    expect(participantsMultiDeleteRequestSchema.parse({ ids: [1] }).permanent).toBe(false);
    expect(issuePaths(participantsMultiDeleteRequestSchema, { ids: [] })).toEqual(['ids']);
    expect(issuePaths(participantsMultiDeleteRequestSchema, {}).sort()).toEqual(['ids']);
  });
});

describe('segments', () => {
  it('parses a translated segment and an edited own one', () => {
    expect(segmentSchema.parse(segment)).toEqual(segment);
    const own = {
      ...segment,
      isMe: true,
      audioFile: null,
      rawSegment: null,
      transcriptDiff: ['Hello', '-world', '+everyone'],
    };
    expect(segmentSchema.parse(own)).toEqual(own);
  });

  it('names the broken nested field', () => {
    expect(issuePaths(segmentSchema, { ...segment, speaker: { ...segment.speaker, maleVoice: null } })).toEqual([
      'speaker.maleVoice',
    ]);
    expect(issuePaths(segmentSchema, { ...segment, transcriptDiff: ['ok', 3] })).toEqual(['transcriptDiff.1']);
    expect(issuePaths(segmentSchema, { ...segment, rawSegment: { ...segment.rawSegment, transcript: undefined } })).toEqual([
      'rawSegment.transcript',
    ]);
  });

  it('list query and counted page', () => {
    expect(segmentsQuerySchema.parse({ limit: '50', offset: '0' })).toEqual({ limit: 50, offset: 0 });
    const page = { count: 1, next: null, previous: null, results: [segment] };
    expect(segmentsPageSchema.parse(page)).toEqual(page);
  });

  it('update takes tone, transcript or both', () => {
    expect(segmentUpdateRequestSchema.parse({ tone: 'CASUAL' })).toEqual({ tone: 'CASUAL' });
    expect(segmentUpdateRequestSchema.parse({ transcript: ' Hello all ' })).toEqual({ transcript: 'Hello all' });
    expect(segmentUpdateRequestSchema.parse({ tone: 'FORMAL', transcript: 'Hi' })).toEqual({
      tone: 'FORMAL',
      transcript: 'Hi',
    });
  });

  it('update rejects an empty body, unknown tone and a blank or overlong transcript', () => {
    expect(issuePaths(segmentUpdateRequestSchema, {})).toEqual(['']);
    expect(issuePaths(segmentUpdateRequestSchema, { tone: 'ANGRY' })).toEqual(['tone']);
    expect(issuePaths(segmentUpdateRequestSchema, { transcript: '  ' })).toEqual(['transcript']);
    expect(
      issuePaths(segmentUpdateRequestSchema, { transcript: 'x'.repeat(LIMITS.transcriptMax + 1) }),
    ).toEqual(['transcript']);
  });

  it('put and patch take the same body', () => {
    for (const schema of [segmentPutRequestSchema, segmentPatchRequestSchema]) {
      expect(schema.parse({ tone: 'DEFAULT' })).toEqual({ tone: 'DEFAULT' });
      expect(schema.safeParse({}).success).toBe(false);
    }
  });

  it('lists the accepted audio types', () => {
    expect([...SEGMENT_AUDIO_MIME_TYPES]).toEqual(['audio/webm', 'audio/ogg', 'audio/wav']);
  });
});
