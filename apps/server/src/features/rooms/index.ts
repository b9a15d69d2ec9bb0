// The rooms feature assembled: repository, segment presenter, live pushes, LiveKit (tokens, removals),
// service, its speech jobs and its routes.
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '@parla/contract/constants';
import type { AppContext } from '../../context';
import { inspectUtterance } from '../../domain/rendering/speech/audio';
import { createLivekit, type Calls } from './livekit';
import { createMesh } from './mesh';
import { createRoomsLive } from './live';
import { createSpeechStreams } from './interpreting/speech-streams';
import { createRoomsRepository } from './repository';
import { roomsRoutes } from './routes';
import { createSegmentPresenter } from './segments';
import { createRoomsService, RENDER_QUEUE, RENDERS_AT_ONCE, TRANSCRIBE_QUEUE, type SegmentJob } from './service';
import { API } from '@parla/contract/api';
import { SPEECH_STREAM } from '@parla/contract/constants';
import { fillPath } from '../../platform/routes';

/** A partial's translation at most this often through an OpenAI-compatible server (each call is paid). */
const PAID_PARTIAL_EVERY_MS = 1_500;

export async function roomsFeature(app: FastifyInstance, ctx: AppContext) {
  const { config } = ctx;
  const repo = createRoomsRepository(ctx.db);
  const presenter = createSegmentPresenter({
    translation: ctx.translator.provider,
    synthesis: ctx.speech.synthesis,
    audioUrl: (roomId, key) => `${config.publicUrl}${fillPath(API.getAudio, { roomId, name: key.split('/').pop()! })}`,
  });
  const live = createRoomsLive(ctx.realtime, repo, presenter);
  // A call's media: LiveKit when configured, and always the mesh of people connected directly.
  const livekit = createLivekit({ ...config.livekit, log: app.log });
  const mesh = createMesh(ctx.realtime, repo, { iceServers: config.iceServers, turn: config.turn, rejoinGraceMs: config.callRejoinGraceMs });
  // Speech streamed while it is spoken (interpreting/): cut with the call.
  const streams = createSpeechStreams(
    ctx.realtime,
    {
      transcriber: ctx.speech.streaming,
      translator: ctx.translator,
      // Apertium's calls cost nothing but CPU; a paid model's cost money and time (PARTIAL_TRANSLATION_MS).
      partialEveryMs: config.partialTranslationMs ?? (ctx.translator.provider.name === 'openai' ? PAID_PARTIAL_EVERY_MS : SPEECH_STREAM.partialEveryMs),
      gate: (roomId, userId) => rooms.streamGate(roomId, userId),
      store: (roomId, userId, utterance) => rooms.storeStreamed(roomId, userId, utterance),
      captionsContext: (roomId) => rooms.captionsContext(roomId),
      pushPartial: (roomId, groups, view) => live.partial(roomId, groups, view),
      log: app.log,
    },
    app.log,
  );
  const calls: Calls = {
    ...livekit,
    removeParticipants: async (roomId, participantIds) => {
      streams.expel(roomId, participantIds);
      await Promise.all([livekit.removeParticipants(roomId, participantIds), mesh.expel(roomId, participantIds)]);
    },
    closeRoom: async (roomId) => {
      streams.end(roomId);
      await Promise.all([livekit.closeRoom(roomId), mesh.end(roomId)]);
    },
  };
  const rooms = createRoomsService({
    repo,
    users: ctx.users,
    invitations: ctx.invitationMail,
    live,
    presenter,
    translator: ctx.translator,
    transcription: ctx.speech.transcription,
    synthesis: ctx.speech.synthesis,
    inspect: inspectUtterance,
    jobs: ctx.jobs,
    recordings: ctx.recordings,
    avatars: ctx.storage,
    calls,
    push: ctx.push,
    glossaries: ctx.glossaries,
    quotas: ctx.quotas,
    limits: { audioMaxBytes: LIMITS.segmentAudioMaxBytes, audioMaxSeconds: LIMITS.segmentAudioMaxSeconds },
    // A first render's job waits as long as one try may run; a failed one is tried again as a retry would be.
    renderLease: { seconds: config.translationRetries.timeoutSeconds, retryDelaySeconds: config.translationRetries.delaySeconds },
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const policy = {
    retryLimit: config.translationRetries.limit,
    retryDelay: config.translationRetries.delaySeconds,
    retryBackoff: true,
    expireInSeconds: config.translationRetries.timeoutSeconds,
    policy: 'stately' as const,
  };
  // Transcription is heavy (pocketsphinx): fewer at once than renderings.
  ctx.jobs.define<SegmentJob>(TRANSCRIBE_QUEUE, { ...policy, concurrency: 2 }, (job) => rooms.transcribe(job), (job) => rooms.transcribeGaveUp(job));
  ctx.jobs.define<SegmentJob>(RENDER_QUEUE, { ...policy, concurrency: RENDERS_AT_ONCE }, (job) => rooms.render(job), (job) => rooms.renderGaveUp(job));
  // Utterances stored but never queued (a crash in between) are found and queued again: at start,
  // once the workers run, and then every STALE_WORK_CHECK_SECONDS.
  const requeue = () =>
    rooms.requeueStaleTranscriptions().then(
      (count) => count && app.log.warn({ count }, 'transcriptions that lost their job were queued again'),
      (error: unknown) => app.log.error({ err: error }, 'looking for lost transcriptions failed'),
    );
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void requeue();
    timer = setInterval(() => void requeue(), config.staleWorkCheckMs).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
  // First renders running here end before the job queue and the database close (onClose).
  app.addHook('preClose', async () => rooms.settle());
  await app.register(async (scope) => roomsRoutes(scope, ctx, rooms));
}
