// The people of a topic (a chat's members, a room's participants), registered once for both
// features (spec sections 6 and 7): list, invite by e-mail, remove several, set a role (PUT and
// PATCH), remove one. Each feature passes its operations, schemas and service calls; what a
// caller may do is decided by the feature's service, as before.
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Language } from '@parla/contract/constants';
import type { ApiOperation } from '@parla/contract/api';
import type { AppContext } from '../../context';
import { invitationMailBudget } from '../invitations/invitations';
import { route } from '../../platform/routes';

type Removal = 'list' | 'path';

export interface PeopleService<Query, AddBody, Person, Page> {
  list: (scopeId: number, userId: number, query: Query) => Promise<Page>;
  add: (scopeId: number, userId: number, body: AddBody, options: { lang: Language; notify: boolean }) => Promise<Person>;
  remove: (scopeId: number, userId: number, ids: number[], permanent: boolean, via: Removal) => Promise<unknown>;
  changeRole: (scopeId: number, userId: number, id: number, body: Record<string, unknown>) => Promise<Person>;
}

export function peopleRoutes<Query, AddBody, Person, Page>(
  fastify: FastifyInstance,
  ctx: AppContext,
  options: {
    operations: { list: ApiOperation; invite: ApiOperation; removeMany: ApiOperation; setRole: ApiOperation; updateRole: ApiOperation; removeOne: ApiOperation };
    tags: string[];
    /** The path parameter naming the topic (`groupChatId`, `roomId`). */
    scopeParam: string;
    /** What the invitee is told in the operation's description ("they are a member once they accept"). */
    inviteDescription: string;
    /** The zod schemas of the contract, each in its place. */
    schemas: {
      scopePath: unknown;
      itemPath: unknown;
      query: unknown;
      page: unknown;
      addBody: unknown;
      managed: unknown;
      removeMany: unknown;
      removeOneQuery: unknown;
      roleBody: unknown;
    };
    service: PeopleService<Query, AddBody, Person, Page>;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { operations, tags, schemas, service, scopeParam } = options;
  const onRequest = ctx.requireUser;
  const inviteMail = invitationMailBudget(ctx);
  const me = (request: FastifyRequest) => request.auth!.userId;
  const scope = (request: FastifyRequest) => (request.params as Record<string, number>)[scopeParam]!;
  const item = (request: FastifyRequest) => (request.params as { id: number }).id;
  const params = schemas.scopePath as never;
  const itemParams = schemas.itemPath as never;

  app.get(route(operations.list), { onRequest, schema: { tags, params, querystring: schemas.query as never, response: { 200: schemas.page as never } } }, (request) =>
    service.list(scope(request), me(request), request.query as Query),
  );
  app.post(
    route(operations.invite),
    {
      onRequest,
      preHandler: ctx.userLimits.invitations as preHandlerAsyncHookHandler,
      schema: {
        tags,
        description: `Invites someone by e-mail address: the same answer whether or not the address has an account; ${options.inviteDescription}.`,
        params,
        body: schemas.addBody as never,
        response: { 201: schemas.managed as never },
      },
    },
    async (request, reply) => {
      const notify = await inviteMail(request);
      const person = await service.add(scope(request), me(request), request.body as AddBody, { lang: request.lang, notify });
      return reply.code(201).send(person as never);
    },
  );
  app.post(route(operations.removeMany), { onRequest, schema: { tags, params, body: schemas.removeMany as never } }, async (request, reply) => {
    const body = request.body as { ids: number[]; permanent: boolean };
    await service.remove(scope(request), me(request), body.ids, body.permanent, 'list');
    return reply.code(204).send();
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: route(method === 'PUT' ? operations.setRole : operations.updateRole),
      onRequest,
      schema: { tags, params: itemParams, body: schemas.roleBody as never, response: { 200: schemas.managed as never } },
      handler: (request) => service.changeRole(scope(request), me(request), item(request), request.body as Record<string, unknown>),
    });
  }
  app.delete(route(operations.removeOne), { onRequest, schema: { tags, params: itemParams, querystring: schemas.removeOneQuery as never } }, async (request, reply) => {
    await service.remove(scope(request), me(request), [item(request)], (request.query as { permanent: boolean }).permanent, 'path');
    return reply.code(204).send();
  });
}
