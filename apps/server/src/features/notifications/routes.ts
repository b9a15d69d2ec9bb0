// /api/notifications/*: the account's switch and its devices' push subscriptions (domain/delivery/push.ts
// keeps them and delivers; chats and rooms say what to notify).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '@parla/contract/api';
import {
  notificationSettingsPatchSchema,
  notificationSettingsSchema,
  pushSubscriptionPathSchema,
  pushSubscriptionRequestSchema,
  pushSubscriptionSchema,
  type NotificationSettings,
} from '@parla/contract/notifications';
import type { AppContext } from '../../context';
import { fieldError, notFound } from '../../platform/errors';
import { route } from '../../platform/routes';

const tags = ['notifications'];
const PROBLEM_MESSAGES = { not_https: 'pushEndpointNotHttps', private_host: 'pushEndpointPrivate', unresolvable: 'pushEndpointUnresolvable' } as const;

export async function notificationsRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { push } = ctx;
  const onRequest = ctx.requireUser;
  const me = (request: { auth: { userId: number } | null }) => request.auth!.userId;
  const settings = async (userId: number): Promise<NotificationSettings> => ({ ...(await push.settings(userId)), publicKey: push.publicKey });

  app.get(route(API.getNotificationSettings), { onRequest, schema: { tags, response: { 200: notificationSettingsSchema } } }, (request) => settings(me(request)));

  app.patch(
    route(API.updateNotificationSettings),
    { onRequest, schema: { tags, body: notificationSettingsPatchSchema, response: { 200: notificationSettingsSchema } } },
    async (request) => {
      await push.setEnabled(me(request), request.body.enabled);
      return settings(me(request));
    },
  );

  app.post(
    route(API.subscribePush),
    {
      onRequest,
      schema: {
        tags,
        description:
          'Takes `PushSubscription.toJSON()`: 201 for a new device, 200 for one already known (a browser that signed in to another account moves here). The endpoint must be https and not on this machine or a private network.',
        body: pushSubscriptionRequestSchema,
        response: { 201: pushSubscriptionSchema, 200: pushSubscriptionSchema },
      },
    },
    async (request, reply) => {
      const { endpoint, keys } = request.body;
      const problem = await push.checkEndpoint(endpoint);
      if (problem) throw fieldError('endpoint', PROBLEM_MESSAGES[problem], undefined, 'invalid');
      const row = await push.subscribe(me(request), { endpoint, p256dh: keys.p256dh, auth: keys.auth });
      return reply.code(row.created ? 201 : 200).send({ id: row.id, endpoint: row.endpoint, created: row.createdAt.toISOString() });
    },
  );

  app.delete(route(API.unsubscribePush), { onRequest, schema: { tags, params: pushSubscriptionPathSchema } }, async (request, reply) => {
    if (!(await push.unsubscribe(me(request), request.params.id))) throw notFound();
    return reply.code(204).send();
  });
}
