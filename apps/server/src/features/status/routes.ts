// GET /api/status/: health of each part, 503 when the database does not answer.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '@parla/contract/api';
import { LANGUAGES, type Language } from '@parla/contract/constants';
import { statusResponseSchema, translationInfoSchema, type TranslationInfo } from '@parla/contract/status';
import type { AppContext } from '../../context';
import { route } from '../../platform/routes';

export async function statusRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    route(API.getStatus),
    { preHandler: ctx.userLimits.publicReads, schema: { tags: ['other'], response: { 200: statusResponseSchema, 503: statusResponseSchema } } },
    async (_request, reply) => {
      const [databaseUp, translation, speech] = await Promise.all([ctx.database.ping(), ctx.translator.health(), ctx.speech.health()]);
      const body = {
        status: databaseUp ? ('ok' as const) : ('degraded' as const),
        version: ctx.config.version,
        database: databaseUp ? ('ok' as const) : ('degraded' as const),
        realtime: 'ok' as const,
        translation,
        speech,
      };
      return reply.code(databaseUp ? 200 : 503).send(body);
    },
  );

  // What translation can do, computed once (the provider's reach does not change while it runs).
  let info: TranslationInfo | undefined;
  app.get(route(API.getTranslationAbilities), { preHandler: ctx.userLimits.publicReads, schema: { tags: ['other'], response: { 200: translationInfoSchema } } }, () => {
    info ??= describeTranslation(ctx);
    return info;
  });
}

function describeTranslation(ctx: AppContext): TranslationInfo {
  const { provider } = ctx.translator;
  const heard = LANGUAGES.filter((language) => ctx.speech.transcription.canTranscribe(language));
  const transcribes = heard.length === LANGUAGES.length ? null : heard;
  if (provider.name === 'openai') return { provider: 'openai', supportsTone: true, reach: null, transcribes };
  const reach: Record<string, Language[]> = {};
  for (const source of LANGUAGES) {
    const targets = LANGUAGES.filter((target) => target !== source && provider.canTranslate(source, target));
    if (targets.length) reach[source] = targets;
  }
  return { provider: provider.name, supportsTone: provider.supportsTone, reach, transcribes };
}
