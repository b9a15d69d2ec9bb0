// GET /api/speech/tones/: the tones in the spec's order, labels in the caller's language.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '@parla/contract/api';
import { TONES } from '@parla/contract/constants';
import { toneListSchema } from '@parla/contract/status';
import type { AppContext } from '../../context';
import { toneLabel } from '../../platform/i18n';
import { route } from '../../platform/routes';

export async function speechRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(route(API.listTones), { preHandler: ctx.userLimits.publicReads, schema: { tags: ['speech'], response: { 200: toneListSchema } } }, (request) =>
    TONES.map((value) => ({ value, label: toneLabel(request.lang, value) })),
  );
}
