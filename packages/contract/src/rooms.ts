// /api/rooms/* bodies and queries (spec sections 3, 4, 5 and 7 "Rooms"; product.md "Roles and
// permissions", "Rooms, participants, segments").
import * as z from 'zod/mini';
import { LIMITS } from './constants';
import {
  aliasField,
  dateTimeField,
  descriptionField,
  domainField,
  emailField,
  idField,
  idListField,
  idParam,
  languageField,
  languageSetField,
  languagesField,
  memberStateField,
  queryBooleanField,
  roomRoleField,
  roomStateField,
  textField,
  titleField,
  toneField,
} from './fields';
import { countedPageSchema, limitOffsetQuerySchema, pageIndexQuerySchema } from './pagination';

// ---- Rooms: /rooms/ and /rooms/{id}/ ----

export const roomSchema = z.object({
  id: idField,
  title: z.string(),
  description: z.nullable(z.string()),
  languages: languagesField,
  domain: domainField,
  created: dateTimeField,
  modified: dateTimeField,
  state: roomStateField,
  /** The reading user's role in the room. */
  roomRole: roomRoleField,
  /** Beyond the spec: `invited` (the reader may accept or decline, and sees nothing more) or `joined`. */
  memberState: memberStateField,
  /** Beyond the spec: while the reader is invited, how whoever invited them is named in the room (null once joined). */
  invitedBy: z.nullable(z.string()),
});
export type Room = z.infer<typeof roomSchema>;

const roomFields = z.object({
  title: titleField,
  description: descriptionField,
  /** Absent on create: the server uses the creator's interface language. */
  languages: z.optional(languageSetField),
  domain: domainField,
});

/** POST /rooms/ and PUT /rooms/{id}/: domain defaults to DEFAULT. */
export const roomCreateRequestSchema = z.extend(roomFields, {
  domain: z._default(domainField, 'DEFAULT'),
});
export type RoomCreateRequest = z.infer<typeof roomCreateRequestSchema>;
export const roomPutRequestSchema = roomCreateRequestSchema;
export type RoomPutRequest = z.infer<typeof roomPutRequestSchema>;
/** PATCH /rooms/{id}/: any subset; an absent domain stays as it is (no default here). */
export const roomPatchRequestSchema = z.partial(roomFields);
export type RoomPatchRequest = z.infer<typeof roomPatchRequestSchema>;

/** GET /rooms/?limit=&offset= (home uses limit 5). */
export const roomsQuerySchema = limitOffsetQuerySchema;
export type RoomsQuery = z.infer<typeof roomsQuerySchema>;

export const roomsPageSchema = countedPageSchema(roomSchema);
export type RoomsPage = z.infer<typeof roomsPageSchema>;

/** PUT and PATCH /rooms/{id}/state/ (OWNER only; allowed changes in ROOM_STATE_TRANSITIONS). */
export const roomStateRequestSchema = z.object({ state: roomStateField });
export type RoomStateRequest = z.infer<typeof roomStateRequestSchema>;

// ---- Own participation: /rooms/{roomId}/participant/ ----

export const participantSchema = z.object({
  /** Beyond the spec: the participation's id (the `speaker.id` of one's own segments). */
  id: idField,
  alias: z.string(),
  roomRole: roomRoleField,
  language: languageField,
  /** LiveKit access token, issued only while the room is Live and a LiveKit server is configured; otherwise null. */
  lkToken: z.nullable(z.string()),
  /** Beyond the spec: where to connect with lkToken; null when no LiveKit server is configured. */
  lkUrl: z.nullable(z.string()),
  maleVoice: z.boolean(),
  tone: toneField,
  /** Beyond the spec: `invited` until accepted (POST /rooms/{roomId}/participant/accept/), then `joined`. */
  memberState: memberStateField,
});
export type Participant = z.infer<typeof participantSchema>;

/**
 * PUT /rooms/{roomId}/participant/. The spec's client also sends `roomRole`; the own role is not
 * editable here, so that key is dropped.
 */
export const participantPutRequestSchema = z.object({
  alias: aliasField,
  language: languageField,
  maleVoice: z.boolean(),
  tone: toneField,
});
export type ParticipantPutRequest = z.infer<typeof participantPutRequestSchema>;
/** PATCH /rooms/{roomId}/participant/. */
export const participantPatchRequestSchema = z.partial(participantPutRequestSchema);
export type ParticipantPatchRequest = z.infer<typeof participantPatchRequestSchema>;

/**
 * `?permanent=` of DELETE /rooms/{roomId}/participant/ (leave) and
 * DELETE /rooms/{roomId}/participants/{id}/ (remove).
 */
export const participantDeleteQuerySchema = z.object({
  permanent: z._default(queryBooleanField, false),
});
export type ParticipantDeleteQuery = z.infer<typeof participantDeleteQuerySchema>;

// ---- Managing participants: /rooms/{roomId}/participants/ ----

export const manageParticipantSchema = z.object({
  id: idField,
  /** The participant's account e-mail address. */
  user: z.string(),
  roomRole: roomRoleField,
  /** Beyond the spec: how the participant is shown (an invited one: the e-mail's local part, no avatar). */
  alias: z.string(),
  avatarImage: z.nullable(z.string()),
  /** Beyond the spec: `invited` until they accept. */
  memberState: memberStateField,
});
export type ManageParticipant = z.infer<typeof manageParticipantSchema>;

/** GET /rooms/{roomId}/participants/?pageIndex=&pageSize=&q= */
export const participantsQuerySchema = pageIndexQuerySchema;
export type ParticipantsQuery = z.infer<typeof participantsQuerySchema>;

export const participantsPageSchema = countedPageSchema(manageParticipantSchema);
export type ParticipantsPage = z.infer<typeof participantsPageSchema>;

/** POST /rooms/{roomId}/participants/: `user` is the account's e-mail address. */
export const participantAddRequestSchema = z.object({
  user: emailField,
  roomRole: roomRoleField,
});
export type ParticipantAddRequest = z.infer<typeof participantAddRequestSchema>;

/** PUT/PATCH /rooms/{roomId}/participants/{id}/ (OWNER only; OWNER hands ownership over). */
export const participantRoleRequestSchema = z.object({ roomRole: roomRoleField });
export type ParticipantRoleRequest = z.infer<typeof participantRoleRequestSchema>;

/** POST /rooms/{roomId}/participants/multi_delete/ */
export const participantsMultiDeleteRequestSchema = z.object({
  ids: idListField,
  permanent: z._default(z.boolean(), false),
});
export type ParticipantsMultiDeleteRequest = z.infer<typeof participantsMultiDeleteRequestSchema>;

// ---- Segments: /rooms/{roomId}/segments/ ----

/** The utterance as its speaker said it. */
export const rawSegmentSchema = z.object({
  id: idField,
  language: languageField,
  transcript: z.string(),
  created: dateTimeField,
});
export type RawSegment = z.infer<typeof rawSegmentSchema>;

/** The speaker of a segment as other participants see it. */
export const segmentSpeakerSchema = z.object({
  id: idField,
  alias: z.string(),
  language: languageField,
  roomRole: roomRoleField,
  tone: toneField,
  maleVoice: z.boolean(),
});
export type SegmentSpeaker = z.infer<typeof segmentSpeakerSchema>;

/**
 * A segment rendered for the reading participant: `language`, `tone`, `transcript` and
 * `audioFile` (a URL, null while not synthesised) are the rendering. `transcriptDiff` holds the
 * words of the last edit: unchanged as they are, removed prefixed `-`, added prefixed `+`.
 */
/** Where one step of a segment's pipeline stands for the reader (beyond the spec). */
export const PIPELINE_STATES = ['pending', 'done', 'failed', 'none'] as const;
export type PipelineState = (typeof PIPELINE_STATES)[number];

export const segmentSchema = z.object({
  id: idField,
  audioFile: z.nullable(z.string()),
  created: dateTimeField,
  isMe: z.boolean(),
  language: languageField,
  rawSegment: z.nullable(rawSegmentSchema),
  speaker: segmentSpeakerSchema,
  tone: toneField,
  transcript: z.string(),
  transcriptDiff: z.array(z.string()),
  /**
   * Beyond the spec: the speech-to-text of the utterance (`none`: no transcriber for the
   * speaker's language — the recording is kept and the transcript stays empty), the reader's
   * translation, and the reader's synthesised voice (`audioFile`).
   */
  transcription: z.enum(PIPELINE_STATES),
  translation: z.enum(PIPELINE_STATES),
  speech: z.enum(PIPELINE_STATES),
  /** Beyond the spec: the speaker corrected the transcript. */
  edited: z.boolean(),
  /** Beyond the spec: the utterance's length in seconds. */
  duration: z.number(),
  /**
   * Beyond the spec: a listener's correction of this rendering (`transcript` is then the corrected
   * text, and the voice speaks it); `machine` is what the translator wrote; `by` the participant
   * who corrected it (null once they left). Null when none.
   */
  correction: z.nullable(
    z.object({
      by: z.nullable(z.object({ id: idField, alias: z.string() })),
      at: dateTimeField,
      machine: z.string(),
    }),
  ),
  /** Beyond the spec: glossary terms whose required rendering the translator left out even when asked twice. */
  missedTerms: z.array(z.string()),
});
export type Segment = z.infer<typeof segmentSchema>;

/** PUT /rooms/{roomId}/segments/{id}/rendering/: a listener's correction of their rendering of a segment. */
export const segmentRenderingCorrectionRequestSchema = z.object({
  transcript: textField(LIMITS.transcriptMax, { min: 1, trim: true, example: 'Buenos días a todos.' }),
});
export type SegmentRenderingCorrectionRequest = z.infer<typeof segmentRenderingCorrectionRequestSchema>;

/** GET /rooms/{roomId}/segments/?limit=&offset= (oldest first). */
export const segmentsQuerySchema = limitOffsetQuerySchema;
export type SegmentsQuery = z.infer<typeof segmentsQuerySchema>;

export const segmentsPageSchema = countedPageSchema(segmentSchema);
export type SegmentsPage = z.infer<typeof segmentsPageSchema>;

/**
 * PUT and PATCH /rooms/{roomId}/segments/{id}/: `tone` (of the reader's rendering) and/or
 * `transcript` (speaker only), at least one of them.
 */
export const segmentUpdateRequestSchema = z
  .object({
    tone: z.optional(toneField),
    transcript: z.optional(
      textField(LIMITS.transcriptMax, { min: 1, trim: true, example: 'Good morning, everyone.' }),
    ),
  })
  .check(
    z.refine((body) => body.tone !== undefined || body.transcript !== undefined, {
      message: 'Send tone, transcript or both.',
    }),
  );
export type SegmentUpdateRequest = z.infer<typeof segmentUpdateRequestSchema>;
export const segmentPutRequestSchema = segmentUpdateRequestSchema;
export type SegmentPutRequest = z.infer<typeof segmentPutRequestSchema>;
export const segmentPatchRequestSchema = segmentUpdateRequestSchema;
export type SegmentPatchRequest = z.infer<typeof segmentPatchRequestSchema>;

/**
 * Content types accepted for the multipart `audio` of POST /rooms/{roomId}/segments/, compared
 * without parameters (`audio/webm;codecs=opus` is `audio/webm`). The server checks the content,
 * not this type: WAV, Ogg or WebM, at most LIMITS.segmentAudioMaxSeconds and segmentAudioMaxBytes.
 */
export const SEGMENT_AUDIO_MIME_TYPES = ['audio/webm', 'audio/ogg', 'audio/wav'] as const;

/**
 * The text fields of the multipart upload beside `audio`: `clientId`, a UUID the speaker's client
 * makes for each utterance. An upload repeated with the same one (its answer was lost) is stored
 * once: the repeat answers 200 with the stored segment instead of 201.
 */
export const segmentUploadFieldsSchema = z.object({
  clientId: z.optional(z.uuid()),
  /**
   * How long ago the utterance ended, in milliseconds, when this request was sent (a duration, so
   * the speaker's clock does not matter): its segment's `created` is that moment, not the upload's.
   */
  spokenAgoMs: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(LIMITS.segmentSpokenAgoMaxMs))),
});
export type SegmentUploadFields = z.infer<typeof segmentUploadFieldsSchema>;
export type SegmentAudioMimeType = (typeof SEGMENT_AUDIO_MIME_TYPES)[number];

/** GET /rooms/{roomId}/transcript/?format=txt|srt (beyond the spec): the whole transcript in the caller's language. */
export const TRANSCRIPT_FORMATS = ['txt', 'srt'] as const;
export const transcriptQuerySchema = z.object({ format: z._default(z.enum(TRANSCRIPT_FORMATS), 'txt') });
export type TranscriptQuery = z.infer<typeof transcriptQuerySchema>;

// ---- Path parameters ----

/** /rooms/{id}/ and /rooms/{id}/state/ */
export const roomPathSchema = z.object({ id: idParam });
/** /rooms/{roomId}/... */
export const roomScopePathSchema = z.object({ roomId: idParam });
/** /rooms/{roomId}/participants/{id}/ and /rooms/{roomId}/segments/{id}/ */
export const roomItemPathSchema = z.object({ roomId: idParam, id: idParam });
