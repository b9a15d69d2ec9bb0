// GET /api/status/: health of each part, 503 when the database does not answer.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { statusResponseSchema } from '@parla/contract/status';
import type { AppContext } from '../../core/context';

export async function statusRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/status/',
    { schema: { tags: ['other'], response: { 200: statusResponseSchema, 503: statusResponseSchema } } },
    async (_request, reply) => {
      const databaseUp = await ctx.database.ping();
      // Live pushes, translation and speech arrive with their features; until then they are off.
      const body = {
        status: databaseUp ? ('ok' as const) : ('degraded' as const),
        version: ctx.config.version,
        database: databaseUp ? ('ok' as const) : ('degraded' as const),
        realtime: 'off' as const,
        translation: 'off' as const,
        speech: 'off' as const,
      };
      return reply.code(databaseUp ? 200 : 503).send(body);
    },
  );
}
