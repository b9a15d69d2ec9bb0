// The floor for bench/chat-fanout.ts: the least a Node server can do to fan a posted message out
// to a chat's sockets with the same library. Plain Fastify 5 (no logger, no plugins, no schemas)
// and Socket.IO on the same path (/api/live/) with the same server options as
// apps/server/src/platform/realtime.ts; no database, no authentication, no rendering: `chat:subscribe`
// joins the socket to the chat's room and acknowledges, and `message:send` (or `POST
// /api/chat/{id}/messages/`) emits one `message:created` to that room (every member's socket, the
// sender's included) with a body shaped like the real one, and acknowledges it (answers 201).
//
// Environment: PORT. Started as a child process by chat-fanout.ts: `node --import tsx
// bench/bare-broadcast.ts`.
import Fastify from 'fastify';
import { Server } from 'socket.io';
import { LIVE_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@parla/contract/live';

async function main() {
  const port = Number(process.env.PORT ?? 0);
  const app = Fastify({ logger: false });
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(app.server, {
    path: LIVE_PATH,
    serveClient: false,
    cors: undefined,
    pingInterval: 20_000,
    pingTimeout: 20_000,
    maxHttpBufferSize: 64 * 1024,
  });
  let nextId = 0;
  /** Emits a message to the chat's room; answers it as its sender sees it. */
  const post = (chatId: number, content: string) => {
    const message = {
      id: ++nextId,
      created: new Date().toISOString(),
      isMe: false,
      language: 'en' as const,
      rawMessage: null,
      sender: { id: 1, nickName: 'Member 1', language: 'en' as const, chatRole: 2003 as const, tone: 'DEFAULT' as const, avatarImage: null },
      tone: 'DEFAULT' as const,
      content,
      translation: 'none' as const,
      edited: false,
      mentions: [],
      replyTo: null,
      reactions: [],
      attachments: [],
      correction: null,
      missedTerms: [],
      pinned: null,
    };
    io.to(`chat:${chatId}`).emit('message:created', { chatId, message });
    return { ...message, isMe: true };
  };
  const invalid = { type: 'validation_error' as const, errors: [] };

  io.on('connection', (socket) => {
    socket.on('chat:subscribe', (payload, ack) => {
      const chatId = Number((payload as { chatId?: unknown } | undefined)?.chatId);
      if (!Number.isInteger(chatId) || chatId < 1) return ack({ ok: false, error: 'invalid' });
      void socket.join(`chat:${chatId}`);
      ack({ ok: true });
    });
    socket.on('message:send', (payload, ack) => {
      const chatId = Number((payload as { chatId?: unknown } | undefined)?.chatId);
      const content = (payload as { content?: unknown } | undefined)?.content;
      if (!Number.isInteger(chatId) || chatId < 1 || typeof content !== 'string') return ack({ ok: false, status: 400, error: invalid });
      ack({ ok: true, created: true, message: post(chatId, content) });
    });
  });

  app.post<{ Params: { id: string }; Body: { content?: unknown } }>('/api/chat/:id/messages/', async (request, reply) => {
    const chatId = Number(request.params.id);
    const content = request.body?.content;
    if (!Number.isInteger(chatId) || chatId < 1 || typeof content !== 'string') return reply.code(400).send(invalid);
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.code(201).send(JSON.stringify(post(chatId, content)));
  });

  const stop = () => {
    io.disconnectSockets(true);
    io.engine.close();
    void app.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await app.listen({ port, host: '127.0.0.1' });
  console.log(`bare broadcast server listening on ${port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
