// /api/chat/*: thin handlers over the chats service (spec section 7 "Chat").
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';
import {
  chatCreateRequestSchema,
  chatItemPathSchema,
  chatListPageSchema,
  chatListQuerySchema,
  chatMemberAddRequestSchema,
  chatMemberDeleteQuerySchema,
  chatMemberPatchRequestSchema,
  chatMemberPutRequestSchema,
  chatMemberRoleRequestSchema,
  chatMemberSchema,
  chatMembersMultiDeleteRequestSchema,
  chatMembersPageSchema,
  chatMembersQuerySchema,
  chatMessageCreateRequestSchema,
  chatMessageSchema,
  chatPinsSchema,
  chatPresenceSchema,
  chatReceiptsSchema,
  messageVersionsSchema,
  chatMessagesPageSchema,
  chatMessagesQuerySchema,
  chatMessageUpdateRequestSchema,
  renderingCorrectionRequestSchema,
  chatPatchRequestSchema,
  chatPathSchema,
  chatPutRequestSchema,
  chatScopePathSchema,
  groupChatSchema,
  manageChatMemberSchema,
  attachmentPathSchema,
  attachmentSchema,
  chatSearchPageSchema,
  chatSearchQuerySchema,
  reactionDeleteQuerySchema,
  reactionRequestSchema,
  reactionsSchema,
  unreadSummarySchema,
} from '@parla/contract/chat';
import { API } from '@parla/contract/api';
import { renderingRestoreQuerySchema } from '@parla/contract/fields';
import type { AppContext } from '../../context';
import { fieldError } from '../../platform/errors';
import { readForm } from '../../platform/multipart';
import { LIMITS } from '@parla/contract/constants';
import { route } from '../../platform/routes';
import { glossaryRoutes } from '../../domain/glossary/glossary';
import { peopleRoutes } from '../../domain/people/routes';
import { chatGlossaryItemPathSchema } from '@parla/contract/glossary';
import type { ChatsService } from './service';

const tags = ['chat'];

export async function chatsRoutes(fastify: FastifyInstance, ctx: AppContext, chats: ChatsService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const onRequest = ctx.requireUser;
  const me = (request: { auth: { userId: number } | null }) => request.auth!.userId;
  const { messages: messageLimit, creations: creationLimit, searches: searchLimit } = ctx.userLimits;
  // reply.sendFile for attachments on disk, from the private storage (nothing is served by path).
  if (ctx.recordings.kind === 'disk') await app.register(fastifyStatic, { root: ctx.recordings.root, serve: false });

  // ---- chats ----
  app.get(route(API.getUnread), { onRequest, schema: { tags, response: { 200: unreadSummarySchema } } }, (request) => chats.unreadSummary(me(request)));
  app.get(
    route(API.searchMessages),
    { onRequest, preHandler: ctx.userLimits.searches, schema: { tags, querystring: chatSearchQuerySchema, response: { 200: chatSearchPageSchema } } },
    (request) => chats.search(me(request), request.query),
  );
  app.get(route(API.listChats), { onRequest, schema: { tags, querystring: chatListQuerySchema, response: { 200: chatListPageSchema } } }, (request) =>
    chats.listChats(me(request), request.query),
  );
  app.post(route(API.createChat), { onRequest, preHandler: creationLimit, schema: { tags, body: chatCreateRequestSchema, response: { 201: groupChatSchema } } }, async (request, reply) =>
    reply.code(201).send(await chats.createChat(me(request), request.body)),
  );
  app.get(route(API.getChat), { onRequest, schema: { tags, params: chatPathSchema, response: { 200: groupChatSchema } } }, (request) =>
    chats.getChat(request.params.id, me(request)),
  );
  app.put(route(API.replaceChat), { onRequest, schema: { tags, params: chatPathSchema, body: chatPutRequestSchema, response: { 200: groupChatSchema } } }, (request) =>
    chats.updateChat(request.params.id, me(request), request.body),
  );
  app.patch(route(API.updateChat), { onRequest, schema: { tags, params: chatPathSchema, body: chatPatchRequestSchema, response: { 200: groupChatSchema } } }, (request) =>
    chats.updateChat(request.params.id, me(request), request.body),
  );
  app.delete(route(API.deleteChat), { onRequest, schema: { tags, params: chatPathSchema } }, async (request, reply) => {
    await chats.deleteChat(request.params.id, me(request));
    return reply.code(204).send();
  });

  // ---- own membership ----
  app.get(route(API.getOwnMembership), { onRequest, schema: { tags, params: chatScopePathSchema, response: { 200: chatMemberSchema } } }, (request) =>
    chats.getMembership(request.params.groupChatId, me(request)),
  );
  app.put(route(API.replaceOwnMembership), { onRequest, schema: { tags, params: chatScopePathSchema, body: chatMemberPutRequestSchema, response: { 200: chatMemberSchema } } }, (request) =>
    chats.updateMembership(request.params.groupChatId, me(request), request.body),
  );
  app.patch(route(API.updateOwnMembership), { onRequest, schema: { tags, params: chatScopePathSchema, body: chatMemberPatchRequestSchema, response: { 200: chatMemberSchema } } }, (request) =>
    chats.updateMembership(request.params.groupChatId, me(request), request.body),
  );
  app.delete(route(API.leaveChat), { onRequest, schema: { tags, params: chatScopePathSchema, querystring: chatMemberDeleteQuerySchema } }, async (request, reply) => {
    await chats.leave(request.params.groupChatId, me(request), request.query.permanent);
    return reply.code(204).send();
  });
  app.post(
    route(API.acceptChatInvitation),
    { onRequest, schema: { tags, description: 'Accepts the invitation to the chat (declining is leaving: DELETE on the membership).', params: chatScopePathSchema, response: { 200: chatMemberSchema } } },
    (request) => chats.acceptInvitation(request.params.groupChatId, me(request)),
  );

  // ---- members ----
  peopleRoutes(app, ctx, {
    operations: { list: API.listMembers, invite: API.inviteMember, removeMany: API.removeMembers, setRole: API.setMemberRole, updateRole: API.updateMemberRole, removeOne: API.removeMember },
    tags,
    scopeParam: 'groupChatId',
    inviteDescription: 'they are a member once they accept',
    schemas: {
      scopePath: chatScopePathSchema,
      itemPath: chatItemPathSchema,
      query: chatMembersQuerySchema,
      page: chatMembersPageSchema,
      addBody: chatMemberAddRequestSchema,
      managed: manageChatMemberSchema,
      removeMany: chatMembersMultiDeleteRequestSchema,
      removeOneQuery: chatMemberDeleteQuerySchema,
      roleBody: chatMemberRoleRequestSchema,
    },
    service: {
      list: chats.listMembers,
      add: chats.addMember,
      remove: chats.removeMembers,
      changeRole: (chatId, userId, id, body) => chats.changeRole(chatId, userId, id, (body as z.infer<typeof chatMemberRoleRequestSchema>).chatRole),
    },
  });

  // ---- messages ----
  app.get(route(API.listMessages), { onRequest, schema: { tags, params: chatScopePathSchema, querystring: chatMessagesQuerySchema, response: { 200: chatMessagesPageSchema } } }, (request) =>
    chats.listMessages(request.params.groupChatId, me(request), request.query),
  );
  app.post(
    route(API.postMessage),
    {
      onRequest,
      preHandler: messageLimit,
      schema: {
        tags,
        description: 'Posts a message; the same clientId from the same member answers 200 with the message already stored.',
        params: chatScopePathSchema,
        body: chatMessageCreateRequestSchema,
        response: { 201: chatMessageSchema, 200: chatMessageSchema },
      },
    },
    async (request, reply) => {
      const { message, created } = await chats.postMessage(request.params.groupChatId, me(request), request.body);
      return reply.code(created ? 201 : 200).send(message);
    },
  );
  app.get(route(API.getMessage), { onRequest, schema: { tags, params: chatItemPathSchema, response: { 200: chatMessageSchema } } }, (request) =>
    chats.getMessage(request.params.groupChatId, me(request), request.params.id),
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: route(method === 'PUT' ? API.replaceMessage : API.updateMessage),
      onRequest,
      preHandler: messageLimit,
      schema: { tags, params: chatItemPathSchema, body: chatMessageUpdateRequestSchema, response: { 200: chatMessageSchema } },
      handler: (request) => chats.editMessage(request.params.groupChatId, me(request), request.params.id, request.body.content),
    });
  }
  app.delete(route(API.deleteMessage), { onRequest, schema: { tags, params: chatItemPathSchema } }, async (request, reply) => {
    await chats.deleteMessage(request.params.groupChatId, me(request), request.params.id);
    return reply.code(204).send();
  });

  // ---- attachments ----
  app.post(
    route(API.uploadAttachment),
    {
      onRequest,
      preHandler: messageLimit,
      schema: {
        tags,
        description: 'multipart/form-data with one file `file` (at most 10 MB). Pictures are re-encoded (WebP) with a thumbnail; programs and scripts are refused. Send its id in `attachments` of your next message.',
        consumes: ['multipart/form-data'],
        params: chatScopePathSchema,
        response: { 201: attachmentSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw fieldError('file', 'required', undefined, 'required');
      const form = await readForm(request, { file: { maxBytes: LIMITS.attachmentMaxBytes, tooLarge: 'attachmentTooLarge' } }, 0);
      const data = form.files['file'];
      if (!data) throw fieldError('file', 'required', undefined, 'required');
      return reply.code(201).send(await chats.uploadAttachment(request.params.groupChatId, me(request), { data, name: form.fileNames['file'] }));
    },
  );
  app.get(
    route(API.getAttachment),
    { onRequest, schema: { tags, description: 'The file (a picture or a PDF inline, under a sandbox CSP; anything else as a download), or a picture’s thumbnail: members only.', params: attachmentPathSchema } },
    async (request, reply) => {
      const file = await chats.attachmentFile(request.params.groupChatId, me(request), request.params.id, request.params.variant);
      // A PDF is shown only under the sandbox policy set here: from a bucket (a redirect, which the
      // policy does not follow) it stays a download.
      const inline = file.inline && (file.contentType.startsWith('image/') || ctx.recordings.kind === 'disk');
      const disposition = `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`;
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      return ctx.recordings.send(reply, file.key, { contentType: file.contentType, disposition, cacheControl: 'private, max-age=31536000, immutable' });
    },
  );

  // ---- glossary ----
  glossaryRoutes(app, {
    glossaries: ctx.glossaries,
    operations: { get: API.getChatGlossary, add: API.addChatGlossaryEntry, update: API.updateChatGlossaryEntry, remove: API.removeChatGlossaryEntry, apply: API.applyChatGlossary },
    tags,
    onRequest,
    applyLimit: messageLimit,
    scopePath: chatScopePathSchema,
    itemPath: chatGlossaryItemPathSchema,
    access: (request) => chats.glossaryAccess((request.params as { groupChatId: number }).groupChatId, me(request as never)),
    applyRecent: (request) => chats.applyGlossary((request.params as { groupChatId: number }).groupChatId, me(request as never)),
  });

  // ---- readers' corrections ----
  app.put(
    route(API.correctMessageRendering),
    {
      onRequest,
      preHandler: messageLimit,
      schema: {
        tags,
        description: 'Replaces the text of the caller’s rendering (their language and tone) for every member reading so; the machine’s text is kept in `correction.machine`. Sending the machine’s text takes the correction back.',
        params: chatItemPathSchema,
        body: renderingCorrectionRequestSchema,
        response: { 200: chatMessageSchema },
      },
    },
    (request) => chats.correctRendering(request.params.groupChatId, me(request), request.params.id, request.body.content),
  );
  app.delete(route(API.restoreMessageRendering), { onRequest, schema: { tags, params: chatItemPathSchema, querystring: renderingRestoreQuerySchema } }, async (request, reply) => {
    await chats.restoreRendering(request.params.groupChatId, me(request), request.params.id, request.query.everyone);
    return reply.code(204).send();
  });

  // ---- reactions ----
  app.get(route(API.listReactions), { onRequest, schema: { tags, params: chatItemPathSchema, response: { 200: reactionsSchema } } }, (request) =>
    chats.listReactions(request.params.groupChatId, me(request), request.params.id),
  );
  app.post(
    route(API.addReaction),
    {
      onRequest,
      preHandler: messageLimit,
      schema: {
        tags,
        description: 'Reacts with one emoji: 201 with the message’s reactions, or 200 when the member had given this emoji already.',
        params: chatItemPathSchema,
        body: reactionRequestSchema,
        response: { 201: reactionsSchema, 200: reactionsSchema },
      },
    },
    async (request, reply) => {
      const { reactions, created } = await chats.addReaction(request.params.groupChatId, me(request), request.params.id, request.body.emoji);
      return reply.code(created ? 201 : 200).send(reactions);
    },
  );
  app.delete(route(API.removeReaction), { onRequest, schema: { tags, params: chatItemPathSchema, querystring: reactionDeleteQuerySchema } }, async (request, reply) => {
    await chats.removeReaction(request.params.groupChatId, me(request), request.params.id, request.query.emoji);
    return reply.code(204).send();
  });

  // ---- earlier versions ----
  app.get(
    route(API.listMessageVersions),
    { onRequest, preHandler: searchLimit, schema: { tags, params: chatItemPathSchema, response: { 200: messageVersionsSchema } } },
    (request) => chats.listVersions(request.params.groupChatId, me(request), request.params.id),
  );

  // ---- read receipts and presence ----
  app.get(route(API.listReceipts), { onRequest, schema: { tags, params: chatScopePathSchema, response: { 200: chatReceiptsSchema } } }, (request) =>
    chats.listReceipts(request.params.groupChatId, me(request)),
  );
  app.get(route(API.listPresence), { onRequest, schema: { tags, params: chatScopePathSchema, response: { 200: chatPresenceSchema } } }, (request) =>
    chats.listPresence(request.params.groupChatId, me(request)),
  );

  // ---- pinned messages ----
  app.get(route(API.listPins), { onRequest, schema: { tags, params: chatScopePathSchema, response: { 200: chatPinsSchema } } }, (request) =>
    chats.listPins(request.params.groupChatId, me(request)),
  );
  app.put(
    route(API.pinMessage),
    {
      onRequest,
      schema: {
        tags,
        description: 'Pins the message (no body): 200 with the message as the reader reads it; pinned already, nothing changes. 400 `too_many_pins` past LIMITS.pinsPerChat.',
        params: chatItemPathSchema,
        response: { 200: chatMessageSchema },
      },
    },
    (request) => chats.pinMessage(request.params.groupChatId, me(request), request.params.id),
  );
  app.delete(route(API.unpinMessage), { onRequest, schema: { tags, params: chatItemPathSchema } }, async (request, reply) => {
    await chats.unpinMessage(request.params.groupChatId, me(request), request.params.id);
    return reply.code(204).send();
  });
}
