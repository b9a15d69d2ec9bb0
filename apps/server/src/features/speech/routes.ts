// GET /api/speech/tones/: the tones in the spec's order, labels in the caller's language.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { TONES } from '@parla/contract/constants';
import { toneListSchema } from '@parla/contract/status';
import { toneLabel } from '../../core/i18n';

export async function speechRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/speech/tones/', { schema: { tags: ['speech'], response: { 200: toneListSchema } } }, (request) =>
    TONES.map((value) => ({ value, label: toneLabel(request.lang, value) })),
  );
}
