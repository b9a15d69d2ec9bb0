// Builds the Fastify app: plumbing, features, web client. Used by main.ts and by the tests.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { authenticateRequest, createTokenService } from './core/auth';
import type { Config } from './core/config';
import type { AppContext } from './core/context';
import { openDatabase } from './core/db/index';
import { installErrorHandling } from './core/errors';
import { negotiateLanguage } from './core/i18n';
import { createMailer } from './core/mailer';
import { createMemoryRateLimiter, createRedisRateLimiter } from './core/rate-limit';
import { createDiskStorage } from './core/storage';
import { validatorCompiler } from './core/validation';
import { accountsRoutes } from './features/accounts/routes';
import { createAccountsRepository } from './features/accounts/repository';
import { roomsRoutes } from './features/rooms/routes';
import { speechRoutes } from './features/speech/routes';
import { statusRoutes } from './features/status/routes';

export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // An empty JSON body is "no body" (the client's own refresh and logout send none).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, null);
    return parseJson(request, body as string, done);
  });

  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
  const limiter = config.redisUrl ? await createRedisRateLimiter(config.redisUrl) : createMemoryRateLimiter();
  const tokens = createTokenService(config.secretKey);
  const sessionsRepo = createAccountsRepository(database.db);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    tokens,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log }),
    storage: createDiskStorage({ dataDir: config.dataDir, publicUrl: config.publicUrl }),
    limiter,
    requireUser: async (request) => {
      request.auth = await authenticateRequest(request, tokens, sessionsRepo.isSessionActive);
    },
  };
  app.addHook('onClose', async () => {
    await limiter.close();
    await database.close();
  });

  app.decorateRequest('lang', 'en');
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request, reply) => {
    request.lang = negotiateLanguage(request.headers['accept-language']);
    reply.header('x-request-id', request.id);
  });

  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Parla API', version: config.version, description: 'Multilingual group chats and live rooms.' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const indexHtml = path.join(config.webDistDir, 'index.html');
  const hasWeb = existsSync(indexHtml);
  installErrorHandling(app, (request, reply) => {
    // Client routes (/signin, /room/1, ...) get the single-page app; /api, /media and missing
    // files (a path with an extension) never do.
    const pathname = request.url.split('?')[0] ?? '';
    if (!hasWeb || request.method !== 'GET' || /^\/(api|media)(\/|$)/.test(pathname) || /\.\w+$/.test(pathname)) return undefined;
    return reply.type('text/html').sendFile('index.html', config.webDistDir);
  });

  await app.register(fastifyStatic, { root: ctx.storage.root, prefix: '/media/', decorateReply: false, index: false });
  if (hasWeb) await app.register(fastifyStatic, { root: config.webDistDir, prefix: '/' });

  await app.register(async (scope) => statusRoutes(scope, ctx));
  await app.register(async (scope) => speechRoutes(scope));
  await app.register(async (scope) => accountsRoutes(scope, ctx));
  await app.register(async (scope) => roomsRoutes(scope, ctx));
  return app;
}
