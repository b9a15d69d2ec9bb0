// Inviting someone to a chat or a room by e-mail (product.md "Roles and permissions"): the answer
// to the inviter is the same whether or not the address has an account (an unknown one gets an
// account waiting to be signed up for), the invitee's name is not shown before they accept, and
// the invitee is told by e-mail: to open the app and accept or decline, or to sign up first.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { LANGUAGES, type Language } from '@parla/contract/constants';
import { translate } from '../../platform/i18n';
import type { Config } from '../../platform/config';
import type { RateLimits } from '../../platform/rate-limit';
import type { Mailer } from '../../platform/mailer';
import type { Push } from '../delivery/push';
import { ApiError } from '../../platform/errors';
import { normaliseEmail, type UserSummary } from '../people/users';

export interface InvitationNotice {
  invitee: UserSummary;
  /** Who invites (their account): mails to addresses nobody signed up with are counted per inviter. */
  inviterUserId: number;
  /** How the inviter is named in the e-mail (their name in the chat or room). */
  inviter: string;
  title: string;
  /** Where the invitation is answered, e.g. `/chat/12`. */
  path: string;
  /** The inviter's request language, for an invitee whose own is not known yet. */
  lang: Language;
}

/**
 * The invitation e-mail. To an account's owner it names the inviter and the chat or room. To an
 * address nobody signed up with it is a fixed text with none of the inviter's words (a chat titled
 * "Your account is locked - verify now at https://…" made the server a phishing relay), and such
 * mails are counted per inviter (`newcomers`: past the count the invitation waits unmailed, which
 * the inviter cannot tell from a mailed one).
 */
export function createInvitationMail(deps: { mailer: Mailer; publicUrl: string; log: FastifyBaseLogger; newcomers: (inviterUserId: number) => Promise<void> }) {
  const { mailer, publicUrl, log } = deps;
  const deliver = (to: string, subject: string, text: string, link: string) =>
    mailer.send({ to, subject, text, link }).catch((error: unknown) => log.error({ err: error }, 'an invitation e-mail could not be sent'));
  return {
    /** Sends the e-mail in the background; a failed delivery is logged (the invitation waits in the app). */
    send({ invitee, inviterUserId, inviter, title, path, lang }: InvitationNotice): void {
      if (invitee.emailVerified) {
        const language = (LANGUAGES as readonly string[]).includes(invitee.language) ? (invitee.language as Language) : lang;
        const link = `${publicUrl}${path}`;
        void deliver(invitee.email, translate(language, 'invitationSubject', { inviter, title }), translate(language, 'invitationBody', { inviter, title, link }), link);
        return;
      }
      const link = `${publicUrl}/signup/`;
      deps.newcomers(inviterUserId).then(
        () => deliver(invitee.email, translate(lang, 'invitationNewcomerSubject'), translate(lang, 'invitationNewcomerBody', { link }), link),
        () => log.info({ inviter: inviterUserId }, 'invitation e-mail to an address without an account not sent: the inviter’s count is spent'),
      );
    },
  };
}

export type InvitationMail = ReturnType<typeof createInvitationMail>;

/** The invitee is also notified on their devices (when they have an account with some, and no tab open). */
export function notifyInvitation(push: Push, invite: { userId: number; inviter: string; title: string; url: string; tag: string }) {
  push.notifyOffline([invite.userId], (language) => ({
    kind: 'invitation',
    title: translate(language, 'pushInvitationTitle', { title: invite.title }),
    body: translate(language, 'pushInvitationBody', { inviter: invite.inviter }),
    lang: language,
    url: invite.url,
    tag: invite.tag,
  }));
}

/**
 * Whether an invitation may also go out by e-mail: each address gets at most RATE_LIMIT_EMAIL
 * invitation e-mails per window, whoever sends them. Past that the invitation is still made (it
 * waits in the invitee's list): refusing it would let anyone block another's invitations.
 */
export function invitationMailBudget(ctx: { limits: RateLimits; config: Pick<Config, 'rateLimits'> }) {
  const { limits, config } = ctx;
  const counter = limits.counter({
    name: 'invitation-mail',
    max: config.rateLimits.email,
    windowMs: config.rateLimits.windowMs,
    key: (request) => normaliseEmail((request.body as { user: string }).user),
  });
  return async (request: FastifyRequest): Promise<boolean> => {
    try {
      await counter.check(request);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 429) return false;
      throw error;
    }
    await counter.add(request);
    return true;
  };
}
