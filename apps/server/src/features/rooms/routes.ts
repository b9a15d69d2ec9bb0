// /api/rooms/: the caller's rooms (list, create). Room detail, state, participants and segments
// follow with the rooms and speech work.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ROOM_ROLE, type Language, type RoomRole, type RoomState, type Domain } from '@parla/contract/constants';
import { roomCreateRequestSchema, roomSchema, roomsPageSchema, roomsQuerySchema, type Room } from '@parla/contract/rooms';
import type { AppContext } from '../../core/context';
import { tokenInvalid } from '../../core/errors';
import { createRoomsRepository, type RoomWithRole } from './repository';

const tags = ['rooms'];

const present = (row: RoomWithRole): Room => ({
  id: row.id,
  title: row.title,
  description: row.description,
  languages: row.languages as Language[],
  domain: row.domain as Domain,
  created: row.createdAt.toISOString(),
  modified: row.modifiedAt.toISOString(),
  state: row.state as RoomState,
  roomRole: row.roomRole as RoomRole,
});

export async function roomsRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = createRoomsRepository(ctx.db);
  const pageLink = (limit: number, offset: number) => `${ctx.config.publicUrl}/api/rooms/?limit=${limit}&offset=${offset}`;

  app.get(
    '/api/rooms/',
    { onRequest: ctx.requireUser, schema: { tags, querystring: roomsQuerySchema, response: { 200: roomsPageSchema } } },
    async (request) => {
      const { limit, offset } = request.query;
      const { count, rows } = await repo.listForUser(request.auth!.userId, limit, offset);
      return {
        count,
        next: offset + limit < count ? pageLink(limit, offset + limit) : null,
        previous: offset > 0 ? pageLink(limit, Math.max(0, offset - limit)) : null,
        results: rows.map(present),
      };
    },
  );

  app.post(
    '/api/rooms/',
    { onRequest: ctx.requireUser, schema: { tags, body: roomCreateRequestSchema, response: { 201: roomSchema } } },
    async (request, reply) => {
      const user = await repo.findUser(request.auth!.userId);
      if (!user) throw tokenInvalid();
      const languages = request.body.languages ?? [user.language as Language];
      const room = await repo.createWithOwner(
        { title: request.body.title, description: request.body.description ?? null, languages, domain: request.body.domain },
        {
          userId: request.auth!.userId,
          roomRole: ROOM_ROLE.OWNER,
          alias: user.fullName || user.email,
          // The owner speaks their own language when the room has it, else the room's first.
          language: languages.includes(user.language as Language) ? user.language : (languages[0] ?? user.language),
        },
      );
      return reply.code(201).send(present(room));
    },
  );
}
