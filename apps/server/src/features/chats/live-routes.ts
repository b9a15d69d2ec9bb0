// The chats feature's operations over the live connection: `message:send`, a message posted as
// POST /api/chat/{groupChatId}/messages/ posts it (the same schema, the same limits, the same
// service call, the same answers and errors), without a request of its own: the connection is
// authenticated already (its session checked at the handshake and every minute, platform/realtime.ts).
import { chatMessageCreateRequestSchema } from '@parla/contract/chat';
import { chatRefSchema, type MessageSendAck } from '@parla/contract/live';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { answerFor, errorBody, notFound } from '../../platform/errors';
import { negotiateLanguage } from '../../platform/i18n';
import { parseOrThrow } from '../../platform/validation';
import type { ChatsService } from './service';

export function chatsLiveRoutes(ctx: AppContext, chats: ChatsService, log: FastifyBaseLogger) {
  const { realtime, userLimits } = ctx;

  async function send(userId: number, payload: unknown): Promise<MessageSendAck> {
    // A chat id that names no chat is the POST's 404 for its path; the body is checked as the POST's.
    const ref = chatRefSchema.safeParse(payload);
    if (!ref.success) throw notFound();
    const body = parseOrThrow(chatMessageCreateRequestSchema, payload);
    await userLimits.liveMessage(userId);
    const { message, created } = await chats.postMessage(ref.data.chatId, userId, body);
    return { ok: true, created, message };
  }

  realtime.onConnection((socket) => {
    socket.on('message:send', (payload, ack) => {
      // Without an acknowledgement nobody would learn the outcome: such a post is not taken.
      if (typeof ack !== 'function') return;
      send(socket.data.userId, payload).then(ack, (error: unknown) => {
        const { error: refusal, unexpected } = answerFor(error);
        if (unexpected) log.error({ err: error, userId: socket.data.userId }, 'message:send failed');
        ack({ ok: false, status: refusal.statusCode, error: errorBody(refusal, negotiateLanguage(socket.handshake.headers['accept-language'])) });
      });
    });
  });
}
