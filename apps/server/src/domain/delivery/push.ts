// Web Push (RFC 8030, payloads encrypted as RFC 8291 says, the server named by VAPID, RFC 8292)
// through the `web-push` package. A subscription's endpoint is an address the browser hands us, so
// it is a request-forgery door: only https endpoints are taken, and never one on this machine or a
// private network (checked when subscribing, and again at every connection by the agent's own DNS
// lookup, so a name that later resolves elsewhere is refused too) unless PUSH_ALLOW_PRIVATE_HOSTS.
// Subscriptions the push service answers 404 or 410 for are gone and removed. A user with a tab
// open (a live connection) gets no push: the tab tells them itself (sound, title).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import webpush, { WebPushError } from 'web-push';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@parla/contract/constants';
import type { PushPayload } from '@parla/contract/notifications';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/index';
import { pushSubscriptions, users } from '../../platform/db/schema';
import { userRoom, type Realtime } from '../../platform/realtime';

/** Devices one account may have subscribed; a new one past this replaces the oldest. */
export const DEVICES_PER_USER = 20;
/** How long a push service keeps a message for a device that is off (seconds). */
const TIME_TO_LIVE = 24 * 3600;
/** A notification's text is cut here (a push message holds about 4 KB). */
const BODY_MAX = 300;

// One list per family: Node's BlockList matches an IPv4 address against IPv6 rules too (as
// ::ffff:a.b.c.d), so a single list holding ::ffff:0:0/96 refused every public IPv4 address.
const PRIVATE_V4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE_V4.addSubnet(network, prefix, 'ipv4');
const PRIVATE_V6 = new BlockList();
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) PRIVATE_V6.addSubnet(network, prefix, 'ipv6');

/** The 16 bytes of a valid IPv6 address (the dotted IPv4 tail form included). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((group) => [group >> 8, group & 255]);
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96), or null. */
function embeddedIPv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  const prefix = bytes.slice(0, 12);
  const mapped = prefix.slice(0, 10).every((byte) => byte === 0) && prefix[10] === 255 && prefix[11] === 255;
  const compatible = prefix.every((byte) => byte === 0) && bytes.slice(12).some((byte) => byte !== 0) && !(bytes[15] === 1 && bytes.slice(12, 15).every((b) => b === 0));
  const nat64 = bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && prefix.slice(4).every((byte) => byte === 0);
  return mapped || compatible || nat64 ? bytes.slice(12).join('.') : null;
}

/** Loopback, private, link-local, documentation, multicast or reserved: not a push service's address. */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return true;
  if (version === 4) return PRIVATE_V4.check(address, 'ipv4');
  const v4 = embeddedIPv4(address);
  if (v4 !== null) return PRIVATE_V4.check(v4, 'ipv4');
  return PRIVATE_V6.check(address, 'ipv6');
}

export type EndpointProblem = 'not_https' | 'private_host' | 'unresolvable';

/** What is wrong with an endpoint before any lookup: its scheme, credentials, an address on this machine or a private network. */
function staticProblem(endpoint: string, allowPrivate: boolean): EndpointProblem | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not_https';
  }
  if (url.protocol !== 'https:' || url.username || url.password || !url.hostname) return 'not_https';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'private_host';
  if (isIP(host) && isPrivateAddress(host)) return 'private_host';
  return null;
}

type Resolver = (hostname: string, options: { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/** The addresses a host name resolves to, those of private networks left out unless allowed (`resolve`: the system's resolver). */
export function publicLookup(allowPrivate: boolean, resolve: Resolver = dnsLookup as unknown as Resolver) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    resolve(hostname, { ...options, all: true } as { all: true }, (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const allowed = allowPrivate ? addresses : addresses.filter((entry) => !isPrivateAddress(entry.address));
      if (allowed.length === 0) return callback(Object.assign(new Error(`${hostname} resolves only to private addresses`), { code: 'EPRIVATEHOST' }));
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

export interface PushTarget {
  userId: number;
  payload: PushPayload;
}

export interface PushDeps {
  db: Db;
  realtime: Realtime;
  config: Config;
  log: FastifyBaseLogger;
  /** Extra certificate authorities for push services (a test's local receiver). */
  ca?: string | undefined;
}

export function createPush(deps: PushDeps) {
  const { db, realtime, config, log } = deps;
  const { vapid, contact, allowPrivateHosts } = config.push;
  const lookup = publicLookup(allowPrivateHosts);
  const agent = new https.Agent({ keepAlive: true, maxSockets: 32, ...(deps.ca ? { ca: deps.ca } : {}), lookup: lookup as never });
  const vapidDetails = { subject: contact, publicKey: vapid.publicKey, privateKey: vapid.privateKey };

  async function removeGone(ids: number[]) {
    if (ids.length) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids));
  }

  /** One push; 'gone' when the push service no longer knows the subscription. */
  async function sendOne(subscription: { id: number; endpoint: string; p256dh: string; auth: string }, payload: PushPayload): Promise<'sent' | 'gone' | 'failed'> {
    if (staticProblem(subscription.endpoint, allowPrivateHosts)) return 'failed';
    const body = JSON.stringify({ ...payload, body: payload.body.length > BODY_MAX ? `${payload.body.slice(0, BODY_MAX - 1)}…` : payload.body });
    try {
      await webpush.sendNotification({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, body, {
        vapidDetails,
        TTL: TIME_TO_LIVE,
        urgency: payload.kind === 'message' ? 'normal' : 'high',
        // A newer push of the same chat or room replaces one the device has not received yet.
        topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || undefined,
        agent,
        timeout: 10_000,
      } as webpush.RequestOptions);
      return 'sent';
    } catch (error) {
      const host = new URL(subscription.endpoint).host;
      if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410)) return 'gone';
      // The endpoint's path is the device's secret: only its host is logged.
      log.warn({ host, status: error instanceof WebPushError ? error.statusCode : undefined, code: (error as NodeJS.ErrnoException).code }, 'a push was not delivered');
      return 'failed';
    }
  }

  const api = {
    publicKey: vapid.publicKey,

    /** Why an endpoint is refused (not https, on a private network, no such host), or null. */
    async checkEndpoint(endpoint: string): Promise<EndpointProblem | null> {
      const problem = staticProblem(endpoint, allowPrivateHosts);
      if (problem) return problem;
      const host = new URL(endpoint).hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host)) return null;
      return new Promise((resolve) => {
        lookup(host, { all: true }, (error: unknown) => {
          if (!error) return resolve(null);
          resolve((error as NodeJS.ErrnoException).code === 'EPRIVATEHOST' ? 'private_host' : 'unresolvable');
        });
      });
    },

    /** The account's switch and how many devices it has subscribed. */
    async settings(userId: number): Promise<{ enabled: boolean; devices: number }> {
      const [[row], [devices]] = await Promise.all([
        db.select({ enabled: users.notificationsEnabled }).from(users).where(eq(users.id, userId)),
        db.select({ total: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)),
      ]);
      return { enabled: row?.enabled ?? false, devices: Number(devices?.total ?? 0) };
    },

    async setEnabled(userId: number, enabled: boolean): Promise<void> {
      await db.update(users).set({ notificationsEnabled: enabled }).where(eq(users.id, userId));
    },

    /**
     * Keeps a browser's subscription for the user: new (created true), the same again, or one
     * another account had on this browser (it moves here). Past DEVICES_PER_USER the oldest goes.
     */
    async subscribe(userId: number, subscription: { endpoint: string; p256dh: string; auth: string }) {
      const [row] = await db
        .insert(pushSubscriptions)
        .values({ userId, ...subscription })
        .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, p256dh: subscription.p256dh, auth: subscription.auth } })
        .returning({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt, created: sql<boolean>`(xmax = 0)` });
      const [{ total = 0 } = {}] = await db.select({ total: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      if (total > DEVICES_PER_USER) {
        await db.execute(sql`delete from ${pushSubscriptions} where id in (select id from ${pushSubscriptions} where user_id = ${userId} and id <> ${row!.id} order by created_at, id limit ${total - DEVICES_PER_USER})`);
      }
      return row!;
    },

    /** Removes one of the user's subscriptions; false when it is not theirs. */
    async unsubscribe(userId: number, id: number): Promise<boolean> {
      const removed = await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId))).returning({ id: pushSubscriptions.id });
      return removed.length > 0;
    },

    /** Of these users, those a push would reach (notifications on, a device subscribed), each with their interface language. */
    async reachable(userIds: readonly number[]): Promise<Map<number, Language>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectDistinct({ userId: pushSubscriptions.userId, language: users.language })
        .from(pushSubscriptions)
        .innerJoin(users, eq(users.id, pushSubscriptions.userId))
        .where(and(inArray(pushSubscriptions.userId, [...userIds]), eq(users.notificationsEnabled, true)));
      return new Map(rows.map((row) => [row.userId, ((LANGUAGES as readonly string[]).includes(row.language) ? row.language : FALLBACK_LANGUAGE) as Language]));
    },

    /** Of these users, those with no open tab (no live connection on any process). */
    async offline(userIds: Iterable<number>): Promise<number[]> {
      const ids = [...userIds];
      const open = await Promise.all(ids.map((id) => realtime.io.in(userRoom(id)).fetchSockets().then((sockets) => sockets.length > 0)));
      return ids.filter((_, index) => !open[index]);
    },

    /** Sends each user's notification to their devices (when their switch is on); subscriptions gone are removed. */
    async deliver(targets: readonly PushTarget[]): Promise<{ sent: number; removed: number; failed: number }> {
      const tally = { sent: 0, removed: 0, failed: 0 };
      if (targets.length === 0) return tally;
      const payloads = new Map(targets.map((target) => [target.userId, target.payload]));
      const rows = await db
        .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId, endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth })
        .from(pushSubscriptions)
        .innerJoin(users, eq(users.id, pushSubscriptions.userId))
        .where(and(inArray(pushSubscriptions.userId, [...payloads.keys()]), eq(users.notificationsEnabled, true)));
      const results = await Promise.all(rows.map((row) => sendOne(row, payloads.get(row.userId)!)));
      const gone = rows.filter((_, index) => results[index] === 'gone').map((row) => row.id);
      await removeGone(gone);
      for (const result of results) tally[result === 'gone' ? 'removed' : result]++;
      return tally;
    },

    /**
     * Notifies these users, in their interface language, when a push would reach them and they have
     * no tab open; in the background (a failure is logged, the caller's work is done).
     */
    notifyOffline(userIds: readonly number[], build: (language: Language) => PushPayload): void {
      void (async () => {
        const reach = await api.reachable(userIds);
        const offline = await api.offline(reach.keys());
        await api.deliver(offline.map((userId) => ({ userId, payload: build(reach.get(userId)!) })));
      })().catch((error: unknown) => log.error({ err: error }, 'a notification could not be sent'));
    },

    close: () => agent.destroy(),
  };
  return api;
}

export type Push = ReturnType<typeof createPush>;
