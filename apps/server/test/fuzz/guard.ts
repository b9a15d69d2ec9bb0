// Runs the bad-input guard against a live server: reads its operations from the OpenAPI document,
// finds which need a session, builds every operation's cases and sends them with a small
// concurrency, judging each answer.
import { assemble, casesFor, validRequest, type Case, type WorldRequest } from './cases';
export type { WorldRequest } from './cases';
import { send, type RawRequest, type Sent } from './http';
import { operationsOf, type Operation } from './operations';
import { Random } from './random';
import { Schemas, type JsonSchema } from './schema';
import { problemOf, statusOf, type OperationSummary, type Outcome } from './verdict';

export interface Session {
  bearer: string;
  cookies: Record<string, string>;
  xsrf: string | undefined;
}

export interface GuardOptions {
  baseUrl: string;
  doc: unknown;
  seed: number;
  bodyLimit: number;
  newSession: () => Promise<Session>;
  /**
   * The valid request of `op` in the world of `session` (a user who owns what the operation acts
   * on): the path values of real objects, and a body or query where the document's examples cannot
   * be valid (a real key, a real password). `fresh`: for one case of an operation that uses its
   * target up (`consumes`). Without it, every path id is 1 and the examples are the request.
   */
  world?: (op: Operation, session: Session | undefined, fresh: boolean) => Promise<WorldRequest>;
  /** Refreshes a session's tokens before they expire (called before each case that carries it). */
  freshen?: (session: Session) => Promise<void>;
  /** Operations whose valid request uses its target up (a delete, a state change): each case gets a fresh target. */
  consumes?: (op: Operation) => boolean;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Requests per operation, at least. */
  minCases?: number;
  /** Seeded random requests per operation, at least. */
  minRandom?: number;
  timeoutMs?: number;
  /** Only operations whose "METHOD /path" contains one of these (comma-separated). */
  only?: string;
}

export interface GuardRun {
  operations: Operation[];
  /** Operations whose valid request did not answer 2xx (with a world, there should be none). */
  baselineFailures: string[];
  outcomes: Outcome[];
  summaries: OperationSummary[];
  ms: number;
  /** Milliseconds spent in each phase. */
  phases: Record<string, number>;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const MAX_RENEWALS = 5;

/**
 * One operation's session and the world it owns; renewed (a new user, a new world) when a case
 * finds the session revoked (logout, reuse detection...).
 */
class SessionSlot {
  generation = 0;
  renewals = 0;
  private pending: Promise<void> | undefined;
  constructor(
    public session: Session,
    public world: WorldRequest,
    private readonly create: () => Promise<{ session: Session; world: WorldRequest }>,
  ) {}

  async renew(seen: number): Promise<boolean> {
    if (this.generation !== seen) return true;
    if (!this.pending) {
      if (this.renewals >= MAX_RENEWALS) return false;
      this.renewals++;
      this.pending = this.create()
        .then(({ session, world }) => {
          this.session = session;
          this.world = world;
          this.generation++;
        })
        .finally(() => {
          this.pending = undefined;
        });
    }
    await this.pending;
    return true;
  }
}

/** Path values of the world put into a path whose world parameters are still `{name}` placeholders. */
const fill = (path: string, values: Record<string, string> | undefined) => path.replace(/\{(\w+)\}/g, (whole, name: string) => values?.[name] ?? '1');


async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

type AuthMode = 'bearer' | 'cookie';

function withSession(request: RawRequest, session: Session, mode: AuthMode, xsrf: Case['xsrf']): RawRequest {
  const headers = { ...request.headers };
  if (mode === 'bearer' && !xsrf) {
    headers.authorization ??= `Bearer ${session.bearer}`;
  } else {
    headers.cookie ??= Object.entries(session.cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    if (!SAFE.has(request.method) && xsrf !== 'missing') headers['x-xsrf-token'] ??= xsrf === 'wrong' ? 'guard-wrong-xsrf' : (session.xsrf ?? '');
  }
  return { ...request, headers };
}

const errorCode = (sent: Sent): string | undefined => {
  try {
    return (JSON.parse(sent.answer?.body ?? '') as { errors?: { code?: string }[] }).errors?.[0]?.code;
  } catch {
    return undefined;
  }
};

export async function runGuard(options: GuardOptions): Promise<GuardRun> {
  const started = Date.now();
  const base = new URL(options.baseUrl);
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const root = new Random(options.seed);
  const schemas = new Schemas(options.doc);
  const filters = (options.only ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  const operations = operationsOf(options.doc).filter((op) => filters.length === 0 || filters.some((filter) => op.key.includes(filter)));
  const slots = new Map<string, SessionSlot>();
  const notes = new Map<string, string[]>();
  const note = (op: Operation, text: string) => notes.set(op.key, [...(notes.get(op.key) ?? []), text]);
  const phases: Record<string, number> = {};
  let mark = Date.now();
  const phase = (name: string) => {
    phases[name] = Date.now() - mark;
    mark = Date.now();
  };
  const byOperation = new Map(operations.map((op) => [op.key, op]));
  const publicWorlds = new Map<string, WorldRequest>();
  const worldOf = (op: Operation): WorldRequest => slots.get(op.key)?.world ?? publicWorlds.get(op.key) ?? {};
  const consumes = (op: Operation) => options.consumes?.(op) ?? false;
  const baseline = (op: Operation, overrides: Parameters<typeof assemble>[2] = {}, world: WorldRequest = worldOf(op)): RawRequest => {
    const { path, headers, body } = assemble(op, validRequest(op, schemas, world), overrides);
    return { method: op.method, path, headers, body: body() };
  };
  /** A session and the world of its user for `op`. */
  const sessionWithWorld = async (op: Operation) => {
    const session = await options.newSession();
    return { session, world: options.world ? await options.world(op, session, false) : {} };
  };

  // 1. Which operations need a session: the valid request without one answers 401 and with one
  //    (a probe session shared by the probes, confirmed with a fresh one should another probe have
  //    ended it) does not. Each of them then gets a session of its own, of a user of its own, so
  //    that a logout or a password change spoils no other operation.
  let probeSession: Promise<Session> | undefined;
  const needing: Operation[] = [];
  await pool(operations, 4, async (op) => {
    const anonymous = await send(base, baseline(op), timeoutMs);
    if (anonymous.answer?.status !== 401 && !op.secured) return;
    probeSession ??= options.newSession();
    let signed = await send(base, withSession(baseline(op), await probeSession, 'bearer', undefined), timeoutMs);
    if (signed.answer?.status === 401) signed = await send(base, withSession(baseline(op), await options.newSession(), 'bearer', undefined), timeoutMs);
    if (signed.answer?.status !== 401) needing.push(op);
  });
  needing.sort((a, b) => operations.indexOf(a) - operations.indexOf(b));
  await pool(needing, 4, async (op) => {
    const { session, world } = await sessionWithWorld(op);
    slots.set(op.key, new SessionSlot(session, world, () => sessionWithWorld(op)));
  });
  if (options.world) {
    const world = options.world;
    await pool(
      operations.filter((op) => !slots.has(op.key)),
      4,
      async (op) => {
        publicWorlds.set(op.key, await world(op, undefined, false));
      },
    );
  }

  phase('sessions and worlds');

  // 2. A body the document does not describe: its fields are the ones an empty object lacks,
  //    shared by the methods of one path (PUT names what PATCH leaves optional).
  const discovered = new Map<string, Set<string>>();
  await pool(
    operations.filter((op) => op.body && !op.body.documented),
    4,
    async (op) => {
      const slot = slots.get(op.key);
      const request = baseline(op, { json: {} });
      const sent = await send(base, slot ? withSession(request, slot.session, 'bearer', undefined) : request, timeoutMs);
      const names = discovered.get(op.path) ?? new Set<string>();
      try {
        const body = JSON.parse(sent.answer?.body ?? '') as { errors?: { code?: string; attr?: string | null }[] };
        for (const error of body.errors ?? []) {
          if (error.attr && /^[\w-]+$/.test(error.attr) && error.attr !== 'non_field_errors' && (error.code === 'required' || error.code === 'blank')) names.add(error.attr);
        }
      } catch {
        // not JSON: nothing learnt
      }
      discovered.set(op.path, names);
    },
  );
  for (const op of operations) {
    if (!op.body || op.body.documented) continue;
    const names = [...(discovered.get(op.path) ?? [])].sort();
    op.body.schema = { type: 'object', properties: Object.fromEntries(names.map((name): [string, JsonSchema] => [name, { type: 'string' }])) };
    note(op, `no request body in the OpenAPI document; fields found by probing: ${names.join(', ') || 'none'}`);
  }

  phase('discovery');

  // 3. The valid request of each operation in its world: it must answer 2xx, or the cases would
  //    stop at a 404 or a validation error instead of reaching the service.
  const validStatus = new Map<string, string>();
  const baselineFailures: string[] = [];
  await pool(operations, concurrency, async (op) => {
    const slot = slots.get(op.key);
    const world = consumes(op) && options.world ? await options.world(op, slot?.session, true) : worldOf(op);
    const request = baseline(op, {}, world);
    const sent = await send(base, slot ? withSession(request, slot.session, 'bearer', undefined) : request, timeoutMs);
    const status = sent.answer?.status;
    validStatus.set(op.key, sent.answer ? `${sent.answer.status}${sent.answer.status >= 400 ? ` ${errorCode(sent) ?? ''}`.trimEnd() : ''}` : 'no answer');
    if (options.world && (status === undefined || status < 200 || status >= 300)) {
      baselineFailures.push(`${op.key} → ${validStatus.get(op.key)}: ${(sent.answer?.body ?? sent.error ?? '').slice(0, 200)}`);
    }
  });

  phase('valid requests');

  // 4. The cases of each operation, each with its way of carrying the session, in a seeded order.
  //    An operation's cases act on its one world, so they are sent one after the other (a
  //    read-back must see its own write); operations run side by side, a few at a time, the
  //    costly ones (hashing a password) first so they do not end the run alone. Bodies are made
  //    when sent: some reach megabytes.
  const order = generate();
  phase('generation');
  const outcomes: Outcome[] = [];
  const byOp = new Map<string, { case: Case; mode: AuthMode }[]>();
  for (const entry of order) byOp.set(entry.case.op, [...(byOp.get(entry.case.op) ?? []), entry]);
  const costly = (key: string) => /\/accounts\/(login|registration|password)/.test(key);
  const queue = [...byOp.keys()].sort((a, b) => Number(costly(b)) - Number(costly(a)));
  await pool(queue, concurrency, async (key) => {
    for (const { case: item, mode } of byOp.get(key)!) outcomes.push(await run(item, mode));
  });
  phase('requests');

  function generate(): { case: Case; mode: AuthMode }[] {
    const all: { case: Case; mode: AuthMode }[] = [];
    for (const op of operations) {
      const slot = slots.get(op.key);
      const rng = root.fork(op.key);
      // World path values stay `{name}` placeholders, filled when each case is sent (a renewed
      // session has a new world; an operation that uses its target up gets a fresh one per case).
      const world = worldOf(op);
      const placeholders = Object.fromEntries(Object.keys(world.pathValues ?? {}).map((name) => [name, `{${name}}`]));
      const cases = casesFor({
        op,
        schemas,
        rng: rng.fork('cases'),
        bodyLimit: options.bodyLimit,
        needsSession: slot !== undefined,
        minCases: options.minCases ?? 200,
        minRandom: options.minRandom ?? 16,
        world: { ...world, pathValues: placeholders },
        ...(slot ? { sampleBearer: slot.session.bearer } : {}),
      });
      const modes = rng.fork('auth');
      for (const item of cases) all.push({ case: item, mode: item.xsrf || modes.chance(0.5) ? 'cookie' : 'bearer' });
    }
    return root.fork('order').shuffle(all);
  }

  async function run(item: Case, mode: AuthMode): Promise<Outcome> {
    const op = byOperation.get(item.op)!;
    const slot = slots.get(item.op);
    const credentials = item.credentials ? slot : undefined;
    let sent: Sent;
    let request: RawRequest = { method: item.method, path: item.path, headers: item.headers, body: item.body() };
    const begun = Date.now();
    for (let attempt = 0; ; attempt++) {
      const generation = slot?.generation ?? 0;
      if (credentials && options.freshen) await options.freshen(credentials.session);
      const world = consumes(op) && options.world ? await options.world(op, slot?.session, true) : worldOf(op);
      request = { ...request, path: fill(item.path, world.pathValues) };
      sent = await send(base, credentials ? withSession(request, credentials.session, mode, item.xsrf) : request, timeoutMs);
      // A session ended by an earlier case (logout, password change, reuse detection): renew, retry once.
      const revoked = credentials && item.family !== 'auth' && sent.answer?.status === 401 && errorCode(sent) === 'token_not_valid';
      if (!revoked || attempt > 0 || !(await credentials.renew(generation))) break;
    }
    const problem = problemOf(sent, item) ?? (options.world && slot ? await readBack(op, request, sent, slot.session) : undefined);
    return { case: item, sent, problem, ms: Date.now() - begun };
  }

  /**
   * A write that answered 2xx is read back: each free text sent (a title, a name, a message) is
   * what a GET of the object now says (line breaks folded, ends trimmed, as the contract stores
   * them). A PUT or PATCH reads its own path; a POST that made an object reads the object's path.
   */
  async function readBack(op: Operation, request: RawRequest, sent: Sent, session: Session): Promise<string | undefined> {
    const status = sent.answer?.status ?? 0;
    if (status < 200 || status >= 300 || !['PUT', 'PATCH', 'POST'].includes(op.method) || !request.body?.length) return undefined;
    // A POST answered 200 found what it would have made (a repeated clientId): nothing new to read.
    if (op.method === 'POST' && status !== 201) return undefined;
    let body: unknown;
    let answer: unknown;
    try {
      body = JSON.parse(request.body.toString('utf8'));
      answer = JSON.parse(sent.answer?.body ?? '');
    } catch {
      return undefined;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const path = request.path.split('?')[0]!;
    let readPath: string | undefined;
    if (op.method !== 'POST') readPath = operations.some((other) => other.method === 'GET' && other.path === op.path) ? path : undefined;
    else {
      const item = operations.find((other) => other.method === 'GET' && other.path.startsWith(op.path) && /^\{[^}]+\}\/$/.test(other.path.slice(op.path.length)));
      const id = (answer as { id?: unknown } | null)?.id;
      if (item && typeof id === 'number') readPath = `${path}${id}/`;
    }
    if (!readPath) return undefined;
    const read = await send(base, withSession({ method: 'GET', path: readPath, headers: { accept: 'application/json' }, body: undefined }, session, 'bearer', undefined), timeoutMs);
    if (read.answer?.status !== 200) return undefined;
    let stored: Record<string, unknown>;
    try {
      stored = JSON.parse(read.answer.body) as Record<string, unknown>;
    } catch {
      return 'read back: not JSON';
    }
    const properties = op.body?.schema ? (schemas.effective(op.body.schema).schema.properties ?? {}) : {};
    const norm = (text: string) => text.replace(/\r\n?|[\u2028\u2029]/g, '\n').trim();
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      const property = properties[name];
      if (typeof value !== 'string' || !property || schemas.kind(schemas.effective(property).schema) !== 'string') continue;
      // A view rendered for its reader (a tone, a language) keeps what was stored in its raw form.
      const raw = Object.entries(stored).find(([key, item]) => key.startsWith('raw') && item !== null && typeof item === 'object' && name in item)?.[1] as Record<string, unknown> | undefined;
      const got = raw ? raw[name] : stored[name];
      if (typeof got === 'string' && norm(got) !== norm(value)) return `read back: ${name} stored as ${JSON.stringify(got).slice(0, 60)}, sent ${JSON.stringify(value).slice(0, 60)}`;
    }
    return undefined;
  }

  const summaries: OperationSummary[] = operations.map((op) => {
    const mine = outcomes.filter((outcome) => outcome.case.op === op.key);
    const statuses = new Map<string, number>();
    for (const outcome of mine) statuses.set(statusOf(outcome.sent), (statuses.get(statusOf(outcome.sent)) ?? 0) + 1);
    const slot = slots.get(op.key);
    if (slot?.renewals) note(op, `session renewed ${slot.renewals}×`);
    const text = notes.get(op.key)?.join('; ');
    return { key: op.key, session: slot !== undefined, validStatus: validStatus.get(op.key) ?? '?', cases: mine.length, statuses, ...(text ? { note: text } : {}) };
  });
  return { operations, outcomes, summaries, baselineFailures, ms: Date.now() - started, phases };
}
