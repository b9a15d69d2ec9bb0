// /api/accounts/*: thin handlers over the accounts service.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  passwordChangeRequestSchema,
  passwordResetConfirmRequestSchema,
  passwordResetRequestSchema,
  registerRequestSchema,
  resendEmailRequestSchema,
  tokenRefreshRequestSchema,
  tokenRefreshResponseSchema,
  tokenVerifyRequestSchema,
  userSchema,
  privacyPatchSchema,
  privacySchema,
  userUpdateFieldsSchema,
  verifyEmailRequestSchema,
} from '@parla/contract/accounts';
import { API } from '@parla/contract/api';
import { COOKIES, LIMITS } from '@parla/contract/constants';
import { detailSchema } from '@parla/contract/errors';
import { checkXsrf, clearSessionCookies, setSessionCookies } from '../../platform/auth';
import { notAuthenticated, notFound } from '../../platform/errors';
import { readForm } from '../../platform/multipart';
import { addressKey, type LimitRule } from '../../platform/rate-limit';
import { route } from '../../platform/routes';
import { translate } from '../../platform/i18n';
import { parseOrThrow } from '../../platform/validation';
import type { AppContext } from '../../context';
import { createAccountsRepository } from './repository';
import { createAccountsService, isBadCredentials, normaliseEmail, type SessionTokens } from './service';

const tags = ['accounts'];

export async function accountsRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, limits, tokens, requireUser } = ctx;
  const repo = createAccountsRepository(ctx.db);
  const accounts = createAccountsService({
    repo,
    tokens,
    mailer: ctx.mailer,
    storage: ctx.storage,
    publicUrl: config.publicUrl,
    log: app.log,
    hashCost: config.passwordHashCost,
    sessionEnded: (sessionId) => ctx.realtime.disconnectSession(sessionId),
    pictures: ctx.pictures,
  });
  const secure = config.publicUrl.startsWith('https://');

  // Housekeeping: sessions and e-mail keys that can no longer be used are removed periodically
  // (every process does it; the deletes are idempotent).
  const prune = () =>
    repo.pruneExpired().then(
      (removed) => app.log.debug(removed, 'expired sessions and e-mail keys removed'),
      (error: unknown) => app.log.error({ err: error }, 'housekeeping failed'),
    );
  const housekeeping = setInterval(() => void prune(), config.housekeepingIntervalMs).unref();
  fastify.addHook('onClose', async () => clearInterval(housekeeping));
  const rates = config.rateLimits;
  const window = rates.windowMs;
  const byAddress = (name: string, max: number): LimitRule => ({ name, max, windowMs: window, key: addressKey });
  const byEmail = (name: string, max: number): LimitRule => ({ name, max, windowMs: window, key: emailOf });
  // Resend and reset both send e-mails: they share their counters.
  const emailLimits = limits.route(byAddress('email', rates.email), byEmail('email-account', rates.email));
  const setCookies = (reply: Parameters<typeof setSessionCookies>[0], session: SessionTokens) =>
    setSessionCookies(reply, { secure, access: session.access, refresh: session.refresh, xsrf: tokens.xsrfFor(session.sessionId) });
  const detail = (request: FastifyRequest, key: Parameters<typeof translate>[1]) => ({ detail: translate(request.lang, key) });

  // Sign-in counts failures, not attempts: per address, and per account from that address. So a
  // guesser is stopped, and the owner's right password from another address still signs in.
  const loginFailures = [
    limits.counter(byAddress('login-failures', rates.loginPerAddress)),
    limits.counter({ name: 'login-failures-account', max: rates.login, windowMs: window, key: (request) => `${emailOf(request)}|${addressKey(request)}` }),
  ];
  app.post(route(API.login), { schema: { tags, body: loginRequestSchema, response: { 200: loginResponseSchema } } }, async (request, reply) => {
    for (const failures of loginFailures) await failures.check(request);
    let session;
    try {
      session = await accounts.login(request.body);
    } catch (error) {
      if (isBadCredentials(error)) await Promise.all(loginFailures.map((failures) => failures.add(request)));
      throw error;
    }
    setCookies(reply, session);
    return {
      access: session.access.token,
      refresh: session.refresh.token,
      user: session.user,
      accessExpiration: session.access.expiresAt.toISOString(),
      refreshExpiration: session.refresh.expiresAt.toISOString(),
    };
  });

  const logout = async (request: FastifyRequest, reply: Parameters<typeof clearSessionCookies>[0], body: z.infer<typeof logoutRequestSchema>) => {
    const bearer = request.headers.authorization?.replace(/^bearer\s+/i, '');
    const ended = await accounts.logout([body?.refresh, request.cookies[COOKIES.refresh], bearer, request.cookies[COOKIES.access]]);
    // A session that ends takes its live connections with it.
    if (ended) ctx.realtime.disconnectSession(ended);
    clearSessionCookies(reply);
    return detail(request, 'loggedOut');
  };
  app.get(route(API.logoutByGet), { preHandler: ctx.userLimits.publicReads, schema: { tags, response: { 200: detailSchema } } }, (request, reply) => logout(request, reply, undefined));
  app.post(route(API.logout), { preHandler: ctx.userLimits.publicReads, schema: { tags, body: logoutRequestSchema, response: { 200: detailSchema } } }, (request, reply) =>
    logout(request, reply, request.body),
  );

  app.post(
    route(API.register),
    { preHandler: limits.route(byAddress('registration', rates.registration)), schema: { tags, body: registerRequestSchema, response: { 201: detailSchema } } },
    async (request, reply) => {
      await accounts.register(request.body, request.lang);
      return reply.code(201).send(detail(request, 'verificationSent'));
    },
  );

  app.post(
    route(API.resendActivation),
    { preHandler: emailLimits, schema: { tags, body: resendEmailRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      await accounts.resendActivation(request.body.email, request.lang);
      return detail(request, 'verificationSent');
    },
  );

  app.post(
    route(API.verifyEmail),
    { preHandler: limits.route(byAddress('verify', rates.loginPerAddress)), schema: { tags, body: verifyEmailRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      await accounts.verifyEmail(request.body.key);
      return detail(request, 'activated');
    },
  );

  app.post(
    route(API.refreshToken),
    { schema: { tags, body: tokenRefreshRequestSchema, response: { 200: tokenRefreshResponseSchema } } },
    async (request, reply) => {
      const fromBody = request.body?.refresh;
      const token = fromBody ?? request.cookies[COOKIES.refresh];
      if (!token) throw notAuthenticated();
      if (!fromBody) {
        // The cookie is the credential here, so the XSRF echo is required as on any cookie call.
        const claims = await tokens.verify(token, 'refresh');
        if (claims) checkXsrf(request, tokens, claims.sessionId);
      }
      const session = await accounts.refresh(token);
      setCookies(reply, session);
      return {
        access: session.access.token,
        accessExpiration: session.access.expiresAt.toISOString(),
        refreshExpiration: session.refresh.expiresAt.toISOString(),
        ...(fromBody ? { refresh: session.refresh.token } : {}),
      };
    },
  );

  app.post(route(API.verifyToken), { schema: { tags, body: tokenVerifyRequestSchema, response: { 200: detailSchema } } }, async (request) => {
    await accounts.verifyToken(request.body.token);
    return detail(request, 'tokenValid');
  });

  app.post(
    route(API.changePassword),
    {
      onRequest: requireUser,
      preHandler: limits.route({ name: 'password-change', max: rates.email, windowMs: window, key: (request) => String(request.auth!.userId) }),
      schema: { tags, body: passwordChangeRequestSchema, response: { 200: detailSchema } },
    },
    async (request) => {
      const auth = request.auth!;
      await accounts.changePassword(auth.userId, auth.sessionId, request.body, request.lang);
      await ctx.realtime.disconnectUser(auth.userId, auth.sessionId);
      return detail(request, 'passwordChanged');
    },
  );

  app.post(route(API.requestPasswordReset), { preHandler: emailLimits, schema: { tags, body: passwordResetRequestSchema, response: { 200: detailSchema } } }, async (request) => {
    await accounts.requestPasswordReset(request.body.email, request.lang);
    return detail(request, 'resetSent');
  });

  app.post(
    route(API.confirmPasswordReset),
    { preHandler: limits.route(byAddress('reset-confirm', rates.loginPerAddress)), schema: { tags, body: passwordResetConfirmRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      await ctx.realtime.disconnectUser(await accounts.confirmPasswordReset(request.body));
      return detail(request, 'resetDone');
    },
  );

  app.get(route(API.getUser), { onRequest: requireUser, schema: { tags, response: { 200: userSchema } } }, (request) =>
    accounts.getUser(request.auth!.userId),
  );

  app.get(route(API.getPrivacy), { onRequest: requireUser, schema: { tags, response: { 200: privacySchema } } }, async (request) => {
    const privacy = await ctx.privacy.get(request.auth!.userId);
    if (!privacy) throw notFound();
    return privacy;
  });
  app.patch(
    route(API.updatePrivacy),
    {
      onRequest: requireUser,
      schema: {
        tags,
        description: 'Only the settings given change. Read receipts off: the others no longer see how far the user read, and the user sees nobody’s; presence off: the user looks offline, with no “last seen”. Open chats follow at once.',
        body: privacyPatchSchema,
        response: { 200: privacySchema },
      },
    },
    async (request) => {
      const privacy = await ctx.privacy.update(request.auth!.userId, request.body);
      if (!privacy) throw notFound();
      return privacy;
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    const fieldsSchema = method === 'PUT' ? userUpdateFieldsSchema : z.partial(userUpdateFieldsSchema);
    app.route({
      method,
      url: route(method === 'PUT' ? API.replaceUser : API.updateUser),
      onRequest: requireUser,
      schema: {
        tags,
        description: 'multipart/form-data (fullName, readingLanguage, avatarImage file) or JSON (fullName, readingLanguage, avatarImage: null to remove).',
        consumes: ['application/json', 'multipart/form-data'],
        // Validates a JSON body (a multipart one has none here: readUserForm reads and checks it).
        body: z.nullish(fieldsSchema),
        response: { 200: userSchema },
      },
      handler: async (request) => {
        const { fields, avatar } = await readUserForm(request);
        const parsed = parseOrThrow(fieldsSchema, fields);
        const removeAvatar = parsed.avatarImage === null || parsed.avatarImage === '';
        return accounts.updateUser(request.auth!.userId, {
          fullName: parsed.fullName,
          readingLanguage: parsed.readingLanguage === '' ? null : parsed.readingLanguage,
          avatar: avatar ?? (removeAvatar ? null : undefined),
        });
      },
    });
  }
}

/** The e-mail of a body that has one (sign-in, resend, reset), as accounts store it. */
const emailOf = (request: FastifyRequest) => normaliseEmail((request.body as { email: string }).email);

/** The profile form: multipart with one optional file `avatarImage`, or a JSON body. */
async function readUserForm(request: FastifyRequest): Promise<{ fields: Record<string, unknown>; avatar?: Buffer }> {
  if (!request.isMultipart()) {
    const body = request.body;
    return { fields: body && typeof body === 'object' ? (body as Record<string, unknown>) : {} };
  }
  const { fields, files } = await readForm(request, { avatarImage: { maxBytes: LIMITS.avatarMaxBytes, tooLarge: 'avatarTooLarge' } });
  const avatar = files['avatarImage'];
  return avatar ? { fields, avatar } : { fields };
}
