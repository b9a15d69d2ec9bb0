// Runs the bad-input guard against a live server: reads its operations from the OpenAPI document,
// finds which need a session, builds every operation's cases and sends them with a small
// concurrency, judging each answer.
import { assemble, casesFor, validRequest, type Case } from './cases';
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
  outcomes: Outcome[];
  summaries: OperationSummary[];
  ms: number;
  /** Milliseconds spent in each phase. */
  phases: Record<string, number>;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const MAX_RENEWALS = 5;

/** One operation's session; renewed when a case finds it revoked (logout, reuse detection...). */
class SessionSlot {
  generation = 0;
  renewals = 0;
  private pending: Promise<void> | undefined;
  constructor(
    public session: Session,
    private readonly create: () => Promise<Session>,
  ) {}

  async renew(seen: number): Promise<boolean> {
    if (this.generation !== seen) return true;
    if (!this.pending) {
      if (this.renewals >= MAX_RENEWALS) return false;
      this.renewals++;
      this.pending = this.create()
        .then((session) => {
          this.session = session;
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
  const baseline = (op: Operation, overrides: Parameters<typeof assemble>[2] = {}): RawRequest => {
    const { path, headers, body } = assemble(op, validRequest(op, schemas), overrides);
    return { method: op.method, path, headers, body: body() };
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
    slots.set(op.key, new SessionSlot(await options.newSession(), options.newSession));
  });

  phase('sessions');

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

  // 3. The valid request of each operation, for the summary (a 4xx there means fewer cases get past validation).
  const validStatus = new Map<string, string>();
  await pool(operations, concurrency, async (op) => {
    const slot = slots.get(op.key);
    const sent = await send(base, slot ? withSession(baseline(op), slot.session, 'bearer', undefined) : baseline(op), timeoutMs);
    validStatus.set(op.key, sent.answer ? `${sent.answer.status}${sent.answer.status >= 400 ? ` ${errorCode(sent) ?? ''}`.trimEnd() : ''}` : 'no answer');
  });

  phase('valid requests');

  // 4. The cases of all operations, each with its way of carrying the session, in one seeded order
  //    (costly operations, hashing a password, spread over the run), sent with a small concurrency.
  //    Bodies are made when sent: some reach megabytes.
  const order = generate();
  phase('generation');
  const outcomes: Outcome[] = [];
  await pool(order, concurrency, async ({ case: item, mode }) => {
    outcomes.push(await run(item, mode));
  });
  phase('requests');

  function generate(): { case: Case; mode: AuthMode }[] {
    const all: { case: Case; mode: AuthMode }[] = [];
    for (const op of operations) {
      const slot = slots.get(op.key);
      const rng = root.fork(op.key);
      const cases = casesFor({
        op,
        schemas,
        rng: rng.fork('cases'),
        bodyLimit: options.bodyLimit,
        needsSession: slot !== undefined,
        minCases: options.minCases ?? 200,
        minRandom: options.minRandom ?? 16,
        ...(slot ? { sampleBearer: slot.session.bearer } : {}),
      });
      const modes = rng.fork('auth');
      for (const item of cases) all.push({ case: item, mode: item.xsrf || modes.chance(0.5) ? 'cookie' : 'bearer' });
    }
    return root.fork('order').shuffle(all);
  }

  async function run(item: Case, mode: AuthMode): Promise<Outcome> {
    const request: RawRequest = { method: item.method, path: item.path, headers: item.headers, body: item.body() };
    const slot = item.credentials ? slots.get(item.op) : undefined;
    let sent: Sent;
    const begun = Date.now();
    for (let attempt = 0; ; attempt++) {
      const generation = slot?.generation ?? 0;
      sent = await send(base, slot ? withSession(request, slot.session, mode, item.xsrf) : request, timeoutMs);
      // A session ended by an earlier case (logout, password change, reuse detection): renew, retry once.
      const revoked = slot && item.family !== 'auth' && sent.answer?.status === 401 && errorCode(sent) === 'token_not_valid';
      if (!revoked || attempt > 0 || !(await slot.renew(generation))) break;
    }
    return { case: item, sent, problem: problemOf(sent), ms: Date.now() - begun };
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
  return { operations, outcomes, summaries, ms: Date.now() - started, phases };
}
