// Builds the Fastify app: plumbing, features, web client. Used by main.ts and by the tests.
import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { describeApi } from './platform/openapi';
import { authenticateRequest, createTokenService } from './platform/auth';
import type { Config } from './platform/config';
import type { AppContext } from './context';
import { openDatabase } from './platform/db/index';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './platform/errors';
import { RequestLog, loggerOptions } from './platform/logging';
import { installSecurityHeaders } from './platform/security-headers';
import { negotiateLanguage } from './platform/i18n';
import { createMailer } from './platform/mailer';
import { createPictureDecoder } from './platform/images';
import { createQuotas } from './platform/quotas';
import { installRateLimits, perUser, userLimits } from './platform/rate-limit';
import { createJobs } from './platform/jobs';
import { createGlossaries } from './domain/glossary/glossary';
import { createPush } from './domain/delivery/push';
import { createRealtime } from './platform/realtime';
import { createSpeech } from './domain/rendering/speech/index';
import { createDiskStorage, createS3Storage, s3Origin } from './platform/storage';
import { createInvitationMail } from './domain/invitations/invitations';
import { createUserDirectory } from './domain/people/users';
import { createPrivacy } from './domain/people/privacy';
import { createPresence } from './domain/delivery/presence';
import { dummyHash } from './features/accounts/passwords';
import { createTranslationProvider, createTranslator } from './domain/rendering/translation/index';
import { serializerCompiler } from './platform/serialization';
import { validatorCompiler } from './platform/validation';
import { serveWebClient } from './platform/web-client';
import { accountsRoutes } from './features/accounts/routes';
import { chatsFeature } from './features/chats/index';
import { createAccountsRepository } from './features/accounts/repository';
import { roomsFeature } from './features/rooms/index';
import { speechRoutes } from './features/speech/routes';
import { notificationsRoutes } from './features/notifications/routes';
import { statusRoutes } from './features/status/routes';

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export interface BuildOptions {
  /** Where log lines go (tests read them); stdout when absent. */
  logStream?: DestinationStream;
  /** PGlite only: a dump of an initialised, migrated data directory to start from (tests). */
  pgliteTemplate?: Blob;
  /** Extra certificate authorities trusted for push services (a test's local https receiver). */
  pushCa?: string;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    logController: new RequestLog(),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    // A hop count trusts that many proxies in front of us (the nearest X-Forwarded-For entries).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    clientErrorHandler,
    frameworkErrors,
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

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.pgliteDir,
    pgliteTemplate: options.pgliteTemplate,
    onIdleError: (error) => app.log.warn({ err: error }, 'an idle database connection ended; the pool opens a new one'),
  });
  const limits = await installRateLimits(app, { redisUrl: config.redisUrl });
  const tokens = createTokenService(config.secretKey);
  const sessionsRepo = createAccountsRepository(database.db);
  const translator = createTranslator(await createTranslationProvider(config, app.log), database.db, app.log);
  const speech = createSpeech(
    {
      sttProvider: config.speech.sttProvider,
      ttsProvider: config.speech.ttsProvider,
      streaming: config.speech.streaming,
      streamsMax: config.speech.streamsMax,
      openai: {
        apiKey: config.openai.apiKey,
        baseUrl: config.openai.baseUrl,
        sttModel: config.speech.sttModel,
        sttRealtimeModel: config.speech.sttRealtimeModel,
        ttsModel: config.speech.ttsModel,
        ttsVoiceMale: config.speech.voices.male,
        ttsVoiceFemale: config.speech.voices.female,
      },
    },
    app.log,
  );
  const jobs = createJobs({
    database,
    databaseUrl: config.databaseUrl,
    log: app.log,
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(config.translationRetries.timeoutSeconds / 2))),
  });
  const realtime = await createRealtime(app, {
    tokens,
    isSessionActive: sessionsRepo.isSessionActive,
    activeSessions: sessionsRepo.activeSessions,
    redisUrl: config.redisUrl,
    log: app.log,
    eventsPer10s: config.rateLimits.liveEventsPer10s,
  });
  const privacy = createPrivacy(database.db, app.log);
  const presence = await createPresence({
    realtime,
    db: database.db,
    redisUrl: config.redisUrl,
    offlineGraceMs: config.presenceOfflineGraceMs,
    shows: async (userId) => (await privacy.get(userId))?.showPresence ?? false,
    log: app.log,
  });
  privacy.onChange(async (userId, before, after) => {
    if (before.showPresence !== after.showPresence) await presence.shownChanged(userId, after.showPresence);
  });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log, printLinks: config.env === 'development' });
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    tokens,
    mailer,
    storage: config.s3 ? createS3Storage(config.s3, { publicUrl: config.publicUrl, folder: 'media' }) : createDiskStorage({ dataDir: config.dataDir, publicUrl: config.publicUrl }),
    recordings: config.s3
      ? createS3Storage(config.s3, { publicUrl: config.publicUrl, folder: 'private' })
      : createDiskStorage({ dataDir: config.dataDir, publicUrl: config.publicUrl, folder: 'private' }),
    limits,
    userLimits: userLimits(limits, config.rateLimits),
    // An invited address without an account gets one nobody can sign in to until it is signed up for.
    users: createUserDirectory(database.db, { unusablePasswordHash: dummyHash(config.passwordHashCost) }),
    privacy,
    presence,
    invitationMail: createInvitationMail({
      mailer,
      publicUrl: config.publicUrl,
      log: app.log,
      newcomers: limits.limiter(perUser('invitation-newcomers', config.rateLimits.newcomerInvitationsPerDay, 24 * 60 * 60_000)).user,
    }),
    translator,
    speech,
    jobs,
    realtime,
    glossaries: createGlossaries(database.db),
    push: createPush({ db: database.db, realtime, config, log: app.log, ca: options.pushCa }),
    pictures: createPictureDecoder({ userPixelsPerMinute: config.rateLimits.picturePixelsPerMinute }),
    quotas: createQuotas(database.db, config.storage),
    requireUser: async (request) => {
      request.auth = await authenticateRequest(request, tokens, sessionsRepo.isSessionActive);
    },
  };
  app.decorate('ctx', ctx);
  // Every signed-in write counts against RATE_LIMIT_WRITES, besides any costlier limit of its own.
  const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
  // A callback hook: a read goes on at once, without a promise and a turn of the microtask queue.
  app.addHook('preHandler', function (request, reply, done) {
    if (!request.auth || !WRITES.has(request.method)) return done();
    ctx.userLimits.writes.call(this, request, reply).then(() => done(), done);
  });
  // Live connections end before the HTTP server closes (it would wait for them); then workers
  // (their jobs finish), the translator, and the database last.
  app.addHook('preClose', async () => {
    await presence.close();
    await realtime.close();
  });
  app.addHook('onClose', async () => {
    await jobs.close();
    ctx.push.close();
    await translator.close();
    await speech.close();
    await database.close();
  });

  // Read from Accept-Language when first asked for (most answers need no translated text).
  app.decorateRequest('lang', {
    getter(this: FastifyRequest) {
      return negotiateLanguage(this.headers['accept-language']);
    },
  });
  app.decorateRequest('auth', null);

  installSecurityHeaders(app, { https: config.publicUrl.startsWith('https://'), livekitUrl: config.livekit.url, filesOrigin: s3Origin(config.s3) });
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Parla API', version: config.version, description: 'Multilingual group chats and live rooms.' },
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => describeApi(jsonSchemaTransformObject(document) as Record<string, unknown>) as never,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  // The web client's files, and index.html for client routes as the not-found fallback.
  installErrorHandling(app, await serveWebClient(app, config.webDistDir));

  if (ctx.storage.kind === 'disk') {
    await app.register(fastifyStatic, { root: ctx.storage.root, prefix: '/media/', decorateReply: false, index: false });
  } else {
    // Public files in a bucket: a redirect to a signed URL (avatars change name when they change).
    app.get('/media/*', { schema: { hide: true } }, async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!/^[a-z0-9][a-z0-9/_.-]*$/.test(key) || key.includes('..')) return reply.code(404).send();
      return ctx.storage.send(reply, key, { cacheControl: 'public, max-age=31536000, immutable' });
    });
  }

  await app.register(async (scope) => statusRoutes(scope, ctx));
  await app.register(async (scope) => speechRoutes(scope, ctx));
  await app.register(async (scope) => accountsRoutes(scope, ctx));
  await roomsFeature(app, ctx);
  await chatsFeature(app, ctx);
  await app.register(async (scope) => notificationsRoutes(scope, ctx));
  // Workers start once every feature has declared its queues.
  await jobs.start();
  return app;
}
