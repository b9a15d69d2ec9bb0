// What counts as a failure, and the report that lists every one of them, grouped.
import * as z from 'zod/mini';
import { errorBodySchema } from '@parla/contract/errors';
import type { Case } from './cases';
import type { Sent } from './http';

export interface Outcome {
  case: Case;
  sent: Sent;
  /** Why this answer fails the guard; undefined when it passes. */
  problem: string | undefined;
  ms: number;
}

/** 400 is a validation error; every other 4xx a client error (401, 403, 404, 405, 413, 415, 429...). */
export const expectedType = (status: number) => (status === 400 ? 'validation_error' : 'client_error');

/** Body-level refusals: a 400 for these names no field, whatever the case changed. */
const BODY_LEVEL = new Set(['parse_error', 'too_large', 'unsupported_media_type', 'unknown_field']);
/**
 * Refusals of a request whose fields are each well-formed, by a rule between fields or with stored
 * data (the passwords differ, the credentials or the key are wrong, an id names nothing): they may
 * name another field than the one the case changed.
 */
const BUSINESS = new Set([
  'authorization',
  'password_mismatch',
  'wrong_password',
  'invalid_token',
  'invalid_key',
  'email_not_verified',
  'does_not_exist',
  'unique',
  'room_not_live',
  'invalid_transition',
  'password_too_short',
  'password_too_common',
  'password_too_similar',
]);
/** `a.b` names `a.b.0` and `a.b.c`, and an error on a list (`ids`) names a change to one of its items (`ids.0`). */
const names = (attr: string | null, changed: string) => attr !== null && (attr === changed || attr.startsWith(`${changed}.`) || changed.startsWith(`${attr}.`));

export function problemOf(sent: Sent, item?: Pick<Case, 'attr'>): string | undefined {
  if (!sent.answer) return sent.error.startsWith('no answer') ? 'no answer' : 'dropped connection';
  const { status, headers, body } = sent.answer;
  if (status >= 500) return `${status >= 600 ? 'unknown' : '5xx'} status`;
  if (status >= 200 && status < 300) return undefined;
  if (status < 400) return 'unexpected 1xx/3xx status';
  const type = String(headers['content-type'] ?? '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `4xx body is not JSON (content-type "${type || 'none'}")`;
  }
  if (!/^application\/json\b/i.test(type)) return `4xx with content-type "${type || 'none'}"`;
  const checked = z.safeParse(errorBodySchema, parsed);
  if (!checked.success) return '4xx body is not the standard error body';
  // Exactly the standard keys: nothing more leaves the server (a stack, a query, a row).
  const extra = Object.keys(parsed as object).filter((key) => key !== 'type' && key !== 'errors');
  if (extra.length) return `4xx body with extra keys: ${extra.join(', ')}`;
  for (const error of (parsed as { errors: Record<string, unknown>[] }).errors) {
    const odd = Object.keys(error).filter((key) => key !== 'code' && key !== 'attr' && key !== 'detail');
    if (odd.length) return `4xx error entry with extra keys: ${odd.join(', ')}`;
  }
  if (checked.data.errors.length === 0) return '4xx error body with an empty errors list';
  if (checked.data.type !== expectedType(status)) return `${status} with type "${checked.data.type}" (expected "${expectedType(status)}")`;
  // A refused field or parameter is named: the error that refuses it has it as `attr`.
  if (status === 400 && item?.attr) {
    const named = checked.data.errors.some((error) => names(error.attr, item.attr!));
    const excused = checked.data.errors.every((error) => BODY_LEVEL.has(error.code) || BUSINESS.has(error.code));
    if (!named && !excused) return `400 does not name ${item.attr} (attr ${checked.data.errors.map((error) => error.attr).join(', ')})`;
  }
  return undefined;
}

/** Escapes control characters and cuts long text, for one-line excerpts. */
export function excerpt(text: string, max = 160): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut).slice(1, -1).replace(/\\"/g, '"');
}

export interface OperationSummary {
  key: string;
  session: boolean;
  validStatus: number | string;
  cases: number;
  statuses: Map<string, number>;
  note?: string;
}

export function statusOf(sent: Sent): string {
  return sent.answer ? String(sent.answer.status) : 'no answer';
}

/** The answer part of a failure line: status, problem and an excerpt of the body (or the error). */
function answerLine(outcome: Outcome): string {
  const answer = outcome.sent.answer ? excerpt(outcome.sent.answer.body) : (outcome.sent.error ?? '');
  return `${statusOf(outcome.sent)} ${outcome.problem} ← ${answer}`;
}

const mutation = (outcome: Outcome) => `[${outcome.case.family}] ${outcome.case.label}`;

/**
 * Every failing case. A mutation that fails with the same answer in several operations is listed
 * once with the operations; the rest by operation, then by answer, one mutation per line.
 */
export function failureReport(outcomes: Outcome[], operationCount: number): string {
  const failing = outcomes.filter((outcome) => outcome.problem);
  const lines: string[] = [];
  const operationsOf = new Map<string, Set<string>>();
  for (const outcome of failing) {
    const key = `${answerLine(outcome)}\u0000${mutation(outcome)}`;
    operationsOf.set(key, (operationsOf.get(key) ?? new Set()).add(outcome.case.op));
  }
  const widespread = new Set([...operationsOf].filter(([, ops]) => ops.size >= 3).map(([key]) => key));
  if (widespread.size > 0) {
    lines.push('The same mutation with the same answer in several operations:');
    const byAnswer = new Map<string, string[]>();
    for (const key of [...widespread].sort()) {
      const [answer = '', label = ''] = key.split('\u0000');
      const ops = [...operationsOf.get(key)!].sort();
      const where = ops.length === operationCount ? `all ${ops.length} operations` : `${ops.length} operations: ${ops.join(', ')}`;
      byAnswer.set(answer, [...(byAnswer.get(answer) ?? []), `${label} — ${where}`]);
    }
    for (const [answer, labels] of byAnswer) lines.push(`  ${answer}`, ...labels.map((label) => `      ${label}`));
  }
  const byOperation = new Map<string, Outcome[]>();
  for (const outcome of failing) {
    if (widespread.has(`${answerLine(outcome)}\u0000${mutation(outcome)}`)) continue;
    byOperation.set(outcome.case.op, [...(byOperation.get(outcome.case.op) ?? []), outcome]);
  }
  for (const [op, list] of [...byOperation].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`${op}: ${list.length} failing request${list.length === 1 ? '' : 's'}`);
    const groups = new Map<string, Outcome[]>();
    for (const outcome of list) groups.set(answerLine(outcome), [...(groups.get(answerLine(outcome)) ?? []), outcome]);
    for (const [answer, members] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  ${answer}`);
      for (const label of members.map(mutation).sort()) lines.push(`      ${label}`);
    }
  }
  return lines.join('\n');
}

export function summaryTable(summaries: OperationSummary[]): string {
  const width = Math.max(...summaries.map((summary) => summary.key.length), 10);
  return summaries
    .map((summary) => {
      const statuses = [...summary.statuses].sort(([a], [b]) => a.localeCompare(b)).map(([status, count]) => `${status}×${count}`).join(' ');
      const note = summary.note ? `  (${summary.note})` : '';
      return `  ${summary.key.padEnd(width)}  ${summary.session ? 'session' : 'public '}  valid→${summary.validStatus}  ${String(summary.cases).padStart(4)} cases: ${statuses}${note}`;
    })
    .join('\n');
}
