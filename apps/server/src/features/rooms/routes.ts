// /api/rooms/*: thin handlers over the rooms service (spec section 7 "Rooms").
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
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
  roomItemPathSchema,
  roomPatchRequestSchema,
  roomPathSchema,
  roomPutRequestSchema,
  roomSchema,
  roomScopePathSchema,
  roomsPageSchema,
  roomsQuerySchema,
  roomStateRequestSchema,
  segmentPatchRequestSchema,
  segmentRenderingCorrectionRequestSchema,
  segmentPutRequestSchema,
  segmentSchema,
  segmentsPageSchema,
  segmentsQuerySchema,
  transcriptQuerySchema,
  segmentUploadFieldsSchema,
} from '@parla/contract/rooms';
import { API } from '@parla/contract/api';
import { renderingRestoreQuerySchema } from '@parla/contract/fields';
import { LIMITS } from '@parla/contract/constants';
import type { AppContext } from '../../context';
import { readForm } from '../../platform/multipart';
import { route } from '../../platform/routes';
import { glossaryRoutes } from '../../domain/glossary/glossary';
import { peopleRoutes } from '../../domain/people/routes';
import { roomGlossaryItemPathSchema } from '@parla/contract/glossary';
import { parseOrThrow } from '../../platform/validation';
import type { RoomsService } from './service';

const tags = ['rooms'];

export async function roomsRoutes(fastify: FastifyInstance, ctx: AppContext, rooms: RoomsService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const onRequest = ctx.requireUser;
  const me = (request: { auth: { userId: number } | null }) => request.auth!.userId;
  // Recordings and voices are sent from their private folder after the participation check.
  if (ctx.recordings.kind === 'disk') await app.register(fastifyStatic, { root: ctx.recordings.root, serve: false });

  // ---- rooms ----
  app.get(route(API.listRooms), { onRequest, schema: { tags, querystring: roomsQuerySchema, response: { 200: roomsPageSchema } } }, (request) =>
    rooms.listRooms(me(request), request.query),
  );
  app.post(route(API.createRoom), { onRequest, preHandler: ctx.userLimits.creations, schema: { tags, body: roomCreateRequestSchema, response: { 201: roomSchema } } }, async (request, reply) =>
    reply.code(201).send(await rooms.createRoom(me(request), request.body)),
  );
  app.get(route(API.getRoom), { onRequest, schema: { tags, params: roomPathSchema, response: { 200: roomSchema } } }, (request) =>
    rooms.getRoom(request.params.id, me(request)),
  );
  app.put(route(API.replaceRoom), { onRequest, schema: { tags, params: roomPathSchema, body: roomPutRequestSchema, response: { 200: roomSchema } } }, (request) =>
    rooms.updateRoom(request.params.id, me(request), request.body),
  );
  app.patch(route(API.updateRoom), { onRequest, schema: { tags, params: roomPathSchema, body: roomPatchRequestSchema, response: { 200: roomSchema } } }, (request) =>
    rooms.updateRoom(request.params.id, me(request), request.body),
  );
  app.delete(route(API.deleteRoom), { onRequest, schema: { tags, params: roomPathSchema } }, async (request, reply) => {
    await rooms.deleteRoom(request.params.id, me(request));
    return reply.code(204).send();
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: route(method === 'PUT' ? API.setRoomState : API.updateRoomState),
      onRequest,
      schema: {
        tags,
        description: 'Owner only. Allowed: 3001→3002 (go live), 3002→3003 (end), 3003→3002 (reopen), 3001→3003 (cancel); anything else is a 400 on state.',
        params: roomPathSchema,
        body: roomStateRequestSchema,
        response: { 200: roomSchema },
      },
      handler: (request) => rooms.changeState(request.params.id, me(request), request.body.state),
    });
  }

  // ---- own participation ----
  app.get(route(API.getOwnParticipation), { onRequest, schema: { tags, params: roomScopePathSchema, response: { 200: participantSchema } } }, (request) =>
    rooms.getParticipant(request.params.roomId, me(request)),
  );
  app.put(route(API.replaceOwnParticipation), { onRequest, schema: { tags, params: roomScopePathSchema, body: participantPutRequestSchema, response: { 200: participantSchema } } }, (request) =>
    rooms.updateParticipant(request.params.roomId, me(request), request.body),
  );
  app.patch(
    route(API.updateOwnParticipation),
    { onRequest, schema: { tags, params: roomScopePathSchema, body: participantPatchRequestSchema, response: { 200: participantSchema } } },
    (request) => rooms.updateParticipant(request.params.roomId, me(request), request.body),
  );
  app.delete(route(API.leaveRoom), { onRequest, schema: { tags, params: roomScopePathSchema, querystring: participantDeleteQuerySchema } }, async (request, reply) => {
    await rooms.leave(request.params.roomId, me(request), request.query.permanent);
    return reply.code(204).send();
  });
  app.post(
    route(API.acceptRoomInvitation),
    { onRequest, schema: { tags, description: 'Accepts the invitation to the room (declining is leaving: DELETE on the participation).', params: roomScopePathSchema, response: { 200: participantSchema } } },
    (request) => rooms.acceptInvitation(request.params.roomId, me(request)),
  );

  // ---- participants ----
  peopleRoutes(app, ctx, {
    operations: {
      list: API.listParticipants,
      invite: API.inviteParticipant,
      removeMany: API.removeParticipants,
      setRole: API.setParticipantRole,
      updateRole: API.updateParticipantRole,
      removeOne: API.removeParticipant,
    },
    tags,
    scopeParam: 'roomId',
    inviteDescription: 'they take part once they accept',
    schemas: {
      scopePath: roomScopePathSchema,
      itemPath: roomItemPathSchema,
      query: participantsQuerySchema,
      page: participantsPageSchema,
      addBody: participantAddRequestSchema,
      managed: manageParticipantSchema,
      removeMany: participantsMultiDeleteRequestSchema,
      removeOneQuery: participantDeleteQuerySchema,
      roleBody: participantRoleRequestSchema,
    },
    service: {
      list: rooms.listParticipants,
      add: rooms.addParticipant,
      remove: rooms.removeParticipants,
      changeRole: (roomId, userId, id, body) => rooms.changeRole(roomId, userId, id, (body as z.infer<typeof participantRoleRequestSchema>).roomRole),
    },
  });

  // ---- segments ----
  app.get(route(API.listSegments), { onRequest, schema: { tags, params: roomScopePathSchema, querystring: segmentsQuerySchema, response: { 200: segmentsPageSchema } } }, (request) =>
    rooms.listSegments(request.params.roomId, me(request), request.query),
  );
  app.post(
    route(API.uploadSegment),
    {
      onRequest,
      preHandler: ctx.userLimits.messages,
      schema: {
        tags,
        description: `multipart/form-data with one file \`audio\`: one utterance, WAV, Ogg or WebM (checked by content), at most ${LIMITS.segmentAudioMaxSeconds} s and ${LIMITS.segmentAudioMaxBytes / 1024 / 1024} MB, while the room is Live.`,
        consumes: ['multipart/form-data'],
        params: roomScopePathSchema,
        response: { 200: segmentSchema, 201: segmentSchema },
      },
    },
    async (request, reply) => {
      const { files, fields } = request.isMultipart()
        ? await readForm(request, { audio: { maxBytes: LIMITS.segmentAudioMaxBytes, tooLarge: 'audioTooLarge' } }, 5)
        : { files: {} as Record<string, Buffer>, fields: {} };
      const { clientId, spokenAgoMs } = parseOrThrow(segmentUploadFieldsSchema, fields);
      const { segment, created } = await rooms.uploadSegment(request.params.roomId, me(request), files['audio'], clientId, spokenAgoMs);
      return reply.code(created ? 201 : 200).send(segment);
    },
  );
  app.get(route(API.getSegment), { onRequest, schema: { tags, params: roomItemPathSchema, response: { 200: segmentSchema } } }, (request) =>
    rooms.getSegment(request.params.roomId, me(request), request.params.id),
  );
  app.put(route(API.replaceSegment), { onRequest, preHandler: ctx.userLimits.messages, schema: { tags, params: roomItemPathSchema, body: segmentPutRequestSchema, response: { 200: segmentSchema } } }, (request) =>
    rooms.updateSegment(request.params.roomId, me(request), request.params.id, request.body),
  );
  app.patch(route(API.updateSegment), { onRequest, preHandler: ctx.userLimits.messages, schema: { tags, params: roomItemPathSchema, body: segmentPatchRequestSchema, response: { 200: segmentSchema } } }, (request) =>
    rooms.updateSegment(request.params.roomId, me(request), request.params.id, request.body),
  );

  // ---- beyond the spec: the transcript, and the audio files ----
  app.get(
    route(API.downloadTranscript),
    {
      onRequest,
      preHandler: ctx.userLimits.exports,
      schema: { tags, description: 'The whole transcript in the caller’s language: text/plain or SubRip (.srt).', params: roomScopePathSchema, querystring: transcriptQuerySchema },
    },
    async (request, reply) => {
      const { filename, body } = await rooms.transcript(request.params.roomId, me(request), request.query.format);
      return reply
        .type(request.query.format === 'srt' ? 'application/x-subrip; charset=utf-8' : 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(body);
    },
  );
  app.get(
    route(API.getAudio),
    { onRequest, schema: { tags, description: 'A recording or a synthesised voice of this room (participants only).', params: z.object({ roomId: roomScopePathSchema.shape.roomId, name: z.string().check(z.maxLength(64)) }) } },
    async (request, reply) => {
      const file = await rooms.audioFile(request.params.roomId, me(request), request.params.name);
      return ctx.recordings.send(reply, file, { cacheControl: 'private, max-age=31536000, immutable' });
    },
  );

  // ---- glossary ----
  glossaryRoutes(app, {
    glossaries: ctx.glossaries,
    operations: { get: API.getRoomGlossary, add: API.addRoomGlossaryEntry, update: API.updateRoomGlossaryEntry, remove: API.removeRoomGlossaryEntry, apply: API.applyRoomGlossary },
    tags,
    onRequest,
    applyLimit: ctx.userLimits.messages,
    scopePath: roomScopePathSchema,
    itemPath: roomGlossaryItemPathSchema,
    access: (request) => rooms.glossaryAccess((request.params as { roomId: number }).roomId, me(request as never)),
    applyRecent: (request) => rooms.applyGlossary((request.params as { roomId: number }).roomId, me(request as never)),
  });

  // ---- listeners' corrections ----
  app.put(
    route(API.correctSegmentRendering),
    {
      onRequest,
      preHandler: ctx.userLimits.messages,
      schema: {
        tags,
        description: 'Replaces the text of the caller’s rendering of an utterance (their language and tone) for everyone hearing it so, and speaks it again; the machine’s text is kept in `correction.machine`. Sending the machine’s text takes the correction back.',
        params: roomItemPathSchema,
        body: segmentRenderingCorrectionRequestSchema,
        response: { 200: segmentSchema },
      },
    },
    (request) => rooms.correctRendering(request.params.roomId, me(request), request.params.id, request.body.transcript),
  );
  app.delete(route(API.restoreSegmentRendering), { onRequest, schema: { tags, params: roomItemPathSchema, querystring: renderingRestoreQuerySchema } }, async (request, reply) => {
    await rooms.restoreRendering(request.params.roomId, me(request), request.params.id, request.query.everyone);
    return reply.code(204).send();
  });
}
