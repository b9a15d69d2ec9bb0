// The chats feature assembled: repository, renderer, live pushes, service, its render jobs and
// its routes (HTTP, and those of the live connection).
import { createWorkBudget } from '../../platform/work-budget';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { createChatsLive } from './live';
import { createChatNotifier, NOTIFY_QUEUE, type NotifyJob } from './notify';
import { createMessagePresenter } from './rendering';
import { createChatsRepository } from './repository';
import { chatsLiveRoutes } from './live-routes';
import { chatsRoutes } from './routes';
import { createChatsService, RENDER_QUEUE, type RenderJob } from './service';

export async function chatsFeature(app: FastifyInstance, ctx: AppContext) {
  const repo = createChatsRepository(ctx.db);
  const presenter = createMessagePresenter(ctx.translator.provider, ctx.storage);
  const live = createChatsLive(ctx.realtime, repo, presenter, ctx.config.publicUrl, ctx.privacy);
  const chats = createChatsService({
    repo,
    users: ctx.users,
    invitations: ctx.invitationMail,
    live,
    presenter,
    translator: ctx.translator,
    jobs: ctx.jobs,
    storage: ctx.storage,
    files: ctx.recordings,
    push: ctx.push,
    privacy: ctx.privacy,
    presence: ctx.presence,
    glossaries: ctx.glossaries,
    pictures: ctx.pictures,
    quotas: ctx.quotas,
    searchBudget: createWorkBudget(ctx.config.rateLimits.searchSecondsPerMinute * 1000),
    unsentUploadMs: ctx.config.storage.unsentMinutes * 60_000,
    publicUrl: ctx.config.publicUrl,
    log: app.log,
  });
  ctx.jobs.define<RenderJob>(
    RENDER_QUEUE,
    // By default five retries over about a minute (2, 4, 8, 16, 32 s and jitter), then the original, marked failed.
    {
      retryLimit: ctx.config.translationRetries.limit,
      retryDelay: ctx.config.translationRetries.delaySeconds,
      retryBackoff: true,
      expireInSeconds: ctx.config.translationRetries.timeoutSeconds,
      // Translations wait on a provider (a model may take a second or more): many at once.
      concurrency: 16,
      policy: 'stately',
    },
    (job, context) => chats.render(job, context),
    (job) => chats.renderGaveUp(job),
  );
  // A failed delivery is not worth many tries: a notification late by minutes is noise.
  const notify = createChatNotifier({ repo, push: ctx.push, provider: ctx.translator.provider });
  ctx.jobs.define<NotifyJob>(NOTIFY_QUEUE, { retryLimit: 1, retryDelay: 5, retryBackoff: false, expireInSeconds: 60, concurrency: 8, policy: 'standard' }, (job) => notify(job));
  // Housekeeping: uploads never sent are deleted after UNSENT_UPLOAD_MINUTES, looked for every
  // minute at least (every process does it; deletes are idempotent).
  const sweep = setInterval(() => {
    chats.sweepUnsentUploads().then(
      (removed) => removed && app.log.info({ removed }, 'unsent uploads removed'),
      (error: unknown) => app.log.error({ err: error }, 'sweeping unsent uploads failed'),
    );
  }, Math.min(60_000, ctx.config.housekeepingIntervalMs)).unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  // What each person shares follows them into every chat they have open; their presence reaches
  // every chat they are in.
  ctx.privacy.onChange(async (userId, before, after) => {
    if (before.readReceipts !== after.readReceipts) await live.receiptsShared(userId, after.readReceipts);
  });
  ctx.presence.onChange(async (userId, view) => {
    const lastSeen = view.lastSeen?.toISOString() ?? null;
    for (const { chatId, memberId } of await repo.membershipsOf(userId)) live.presence(chatId, { memberId, state: view.state, lastSeen });
  });
  await app.register(async (scope) => chatsRoutes(scope, ctx, chats));
  chatsLiveRoutes(ctx, chats, app.log);
}
