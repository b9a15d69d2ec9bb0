// Summarises V8 .cpuprofile files (from `node --cpu-prof` or bench/cpu-profile-hook.ts): where the
// busy time goes, grouped by package (fastify, pino, jose, drizzle-orm, pg, zod, our code...) and
// by function.
//
//   npx tsx bench/profile-summary.ts <file.cpuprofile>[@requests] [more files...] [--top 25]
//     [--callers <function name>]...   who calls that function (e.g. writev, run, is)
//
// `@requests` (the number of requests served while profiling) adds µs of CPU per request.
// Columns, as shares of the busy time (all samples but "(idle)"):
//   self      samples whose leaf frame is in the group;
//   charged   self time with node's own code (node:*) and V8 builtins (no URL) charged to the
//             nearest caller that is a package or our code: "what this package costs, including
//             the node/V8 work it asks for" (GC and "(program)" stay on their own);
//   inclusive samples with the group anywhere on the stack (async code: per continuation only).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface GroupRow {
  group: string;
  selfUs: number;
  chargedUs: number;
  inclusiveUs: number;
}

export interface FunctionRow {
  name: string;
  group: string;
  location: string;
  selfUs: number;
  totalUs: number;
}

export interface ProfileSummary {
  busyUs: number;
  idleUs: number;
  requests: number | undefined;
  groups: GroupRow[];
  functions: FunctionRow[];
}

const NODE_INTERNAL = 'node (node:*)';
const BUILTIN = 'V8 builtins (no URL)';
const GC = '(garbage collector)';
const PROGRAM = '(program)';
const IDLE = '(idle)';

/** The group of a frame: its package under node_modules, our own folders, node, V8... */
export function groupOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return GC;
    if (functionName === '(program)') return PROGRAM;
    if (functionName === '(idle)') return IDLE;
    if (functionName === '(root)') return '(root)';
    return BUILTIN;
  }
  if (url.startsWith('node:')) return NODE_INTERNAL;
  const file = url.startsWith('file://') ? fileURLToPath(url.split('?')[0] ?? url) : url;
  const marker = '/node_modules/';
  const at = file.lastIndexOf(marker);
  if (at >= 0) {
    const parts = file.slice(at + marker.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? file);
  }
  const ours: [string, string][] = [
    ['/apps/server/src/platform/', 'parla server platform (apps/server/src/platform)'],
    ['/apps/server/src/domain/', 'parla server domain (apps/server/src/domain)'],
    ['/apps/server/src/features/', 'parla server features (apps/server/src/features)'],
    ['/apps/server/src/', 'parla server (apps/server/src)'],
    ['/packages/contract/', 'parla contract (packages/contract)'],
    ['/bench/', 'bench (bench/*.ts)'],
  ];
  for (const [fragment, name] of ours) if (file.includes(fragment)) return name;
  return path.basename(file);
}

/** A node or V8 frame whose time is charged to its caller in the "charged" column. */
const passesThrough = (group: string) => group === NODE_INTERNAL || group === BUILTIN || group === '(root)';

export function summariseProfile(profile: CpuProfile, requests?: number): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) byId.set(node.id, node);
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Time of each sample: the gap to the next one (the last gets the mean gap).
  const selfTime = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  const meanGap = samples.length > 0 ? (profile.endTime - profile.startTime) / samples.length : 0;
  for (let i = 0; i < samples.length; i++) {
    const gap = i + 1 < samples.length ? (timeDeltas[i + 1] ?? 0) : meanGap;
    const id = samples[i]!;
    selfTime.set(id, (selfTime.get(id) ?? 0) + Math.max(0, gap));
  }

  const groups = new Map<string, GroupRow>();
  const groupRow = (group: string) => {
    let row = groups.get(group);
    if (!row) groups.set(group, (row = { group, selfUs: 0, chargedUs: 0, inclusiveUs: 0 }));
    return row;
  };
  const functions = new Map<string, FunctionRow>();
  const functionKey = (frame: CallFrame) => `${frame.functionName || '(anonymous)'}|${frame.url}|${frame.lineNumber}|${frame.columnNumber}`;
  const functionRow = (frame: CallFrame) => {
    const key = functionKey(frame);
    let row = functions.get(key);
    if (!row) {
      const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url.split('?')[0] ?? frame.url) : frame.url;
      const short = file.includes('/node_modules/') ? file.slice(file.lastIndexOf('/node_modules/') + 14) : file.replace(/^.*\/(apps|packages|bench)\//, '$1/');
      row = {
        name: frame.functionName || '(anonymous)',
        group: groupOf(frame),
        location: short ? `${short}:${frame.lineNumber + 1}` : '',
        selfUs: 0,
        totalUs: 0,
      };
      functions.set(key, row);
    }
    return row;
  };

  // Depth-first over the call tree, keeping how many times each group / function is on the stack
  // (so recursion is counted once) and the nearest "owner" for the charged column.
  const root = profile.nodes.find((node) => !parent.has(node.id));
  if (!root) throw new Error('empty profile');
  const onStackGroups = new Map<string, number>();
  const onStackFunctions = new Map<string, number>();
  let idleUs = 0;
  let busyUs = 0;
  const leave = (counts: Map<string, number>, key: string) => {
    const count = (counts.get(key) ?? 1) - 1;
    if (count > 0) counts.set(key, count);
    else counts.delete(key);
  };
  type Frame = { id: number; owner: string | undefined; leaving: boolean };
  const stack: Frame[] = [{ id: root.id, owner: undefined, leaving: false }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const node = byId.get(frame.id)!;
    const group = groupOf(node.callFrame);
    const fKey = functionKey(node.callFrame);
    if (frame.leaving) {
      leave(onStackGroups, group);
      leave(onStackFunctions, fKey);
      continue;
    }
    onStackGroups.set(group, (onStackGroups.get(group) ?? 0) + 1);
    onStackFunctions.set(fKey, (onStackFunctions.get(fKey) ?? 0) + 1);
    const owner = passesThrough(group) ? frame.owner : group;
    const time = selfTime.get(node.id) ?? 0;
    if (time > 0) {
      if (group === IDLE) idleUs += time;
      else {
        busyUs += time;
        groupRow(group).selfUs += time;
        groupRow(owner ?? group).chargedUs += time;
        for (const name of onStackGroups.keys()) if (name !== '(root)') groupRow(name).inclusiveUs += time;
        functionRow(node.callFrame).selfUs += time;
        for (const key of onStackFunctions.keys()) {
          const row = functions.get(key);
          if (row) row.totalUs += time;
        }
      }
    }
    stack.push({ id: node.id, owner, leaving: true });
    for (const child of node.children ?? []) {
      // Make sure every function on the stack has a row, so its total can be counted.
      functionRow(byId.get(child)!.callFrame);
      stack.push({ id: child, owner, leaving: false });
    }
  }
  functionRow(root.callFrame);
  groups.delete('(root)');
  return {
    busyUs,
    idleUs,
    requests,
    groups: [...groups.values()].sort((a, b) => b.chargedUs - a.chargedUs || b.selfUs - a.selfUs),
    functions: [...functions.values()].filter((row) => row.group !== IDLE && row.name !== '(root)'),
  };
}

const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '-');
const perRequest = (us: number, requests: number | undefined) => (requests ? (us / requests).toFixed(1) : '-');

function table(header: string[], rows: string[][], alignLeft: number[] = [0]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (alignLeft.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function formatSummary(title: string, summary: ProfileSummary, top = 25): string {
  const { busyUs, idleUs, requests } = summary;
  const out: string[] = [];
  const wall = busyUs + idleUs;
  out.push(
    `${title}: busy ${(busyUs / 1000).toFixed(0)} ms of ${(wall / 1000).toFixed(0)} ms sampled (${pct(busyUs, wall)} of one core)` +
      (requests ? `, ${requests} requests, ${(busyUs / requests).toFixed(1)} µs of main-thread CPU per request` : ''),
  );
  out.push('');
  out.push(
    table(
      ['group', 'self ms', 'self %', 'charged %', 'charged µs/req', 'inclusive %'],
      summary.groups.map((row) => [
        row.group,
        (row.selfUs / 1000).toFixed(0),
        pct(row.selfUs, busyUs),
        pct(row.chargedUs, busyUs),
        perRequest(row.chargedUs, requests),
        pct(row.inclusiveUs, busyUs),
      ]),
    ),
  );
  out.push('');
  out.push(`top ${top} functions by self time`);
  const bySelf = [...summary.functions].sort((a, b) => b.selfUs - a.selfUs).slice(0, top);
  out.push(
    table(
      ['self %', 'total %', 'function', 'group', 'where'],
      bySelf.map((row) => [pct(row.selfUs, busyUs), pct(row.totalUs, busyUs), row.name, row.group, row.location]),
      [2, 3, 4],
    ),
  );
  out.push('');
  out.push(`top ${top} functions by total time (ours and packages only)`);
  const byTotal = [...summary.functions]
    .filter((row) => !passesThrough(row.group) && row.group !== GC && row.group !== PROGRAM)
    .sort((a, b) => b.totalUs - a.totalUs)
    .slice(0, top);
  out.push(
    table(
      ['total %', 'self %', 'function', 'group', 'where'],
      byTotal.map((row) => [pct(row.totalUs, busyUs), pct(row.selfUs, busyUs), row.name, row.group, row.location]),
      [2, 3, 4],
    ),
  );
  return out.join('\n');
}

/** Two summaries side by side per group, in µs per request (needs request counts). */
export function formatComparison(
  left: { title: string; summary: ProfileSummary },
  right: { title: string; summary: ProfileSummary },
): string {
  const lr = left.summary.requests ?? 0;
  const rr = right.summary.requests ?? 0;
  if (!lr || !rr) return '';
  const names = new Set([...left.summary.groups, ...right.summary.groups].map((row) => row.group));
  const charged = (summary: ProfileSummary, name: string) => summary.groups.find((row) => row.group === name)?.chargedUs ?? 0;
  const rows = [...names]
    .map((name) => ({ name, l: charged(left.summary, name) / lr, r: charged(right.summary, name) / rr }))
    .sort((a, b) => b.l - b.r - (a.l - a.r));
  const lTotal = left.summary.busyUs / lr;
  const rTotal = right.summary.busyUs / rr;
  return [
    `main-thread CPU per request, charged to groups: ${left.title} vs ${right.title} (sorted by the difference)`,
    '',
    table(
      ['group', `${left.title} µs/req`, `${right.title} µs/req`, 'difference', 'share of the gap'],
      [
        ...rows.map((row) => [row.name, row.l.toFixed(1), row.r.toFixed(1), (row.l - row.r).toFixed(1), pct(row.l - row.r, lTotal - rTotal)]),
        ['total', lTotal.toFixed(1), rTotal.toFixed(1), (lTotal - rTotal).toFixed(1), '100.0%'],
      ],
    ),
  ].join('\n');
}

/** Who calls the functions named `name` (self time of those frames, by caller), for drilling down. */
export function formatCallers(profile: CpuProfile, name: string, top = 15): string {
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const time = new Map<number, number>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const gap = profile.timeDeltas[i + 1] ?? 0;
    time.set(id, (time.get(id) ?? 0) + gap);
  }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const [id, us] of time) if (groupOf(byId.get(id)!.callFrame) !== IDLE) busy += us;
  const callers = new Map<string, number>();
  for (const node of profile.nodes) {
    if (node.callFrame.functionName !== name) continue;
    const us = time.get(node.id) ?? 0;
    if (us === 0) continue;
    // The chain of callers up to the first frame of a package or of our code.
    const chain: string[] = [];
    for (let up = parent.get(node.id); up && chain.length < 12; up = parent.get(up.id)) {
      const group = groupOf(up.callFrame);
      chain.push(`${up.callFrame.functionName || '(anonymous)'} [${group}]`);
      if (!passesThrough(group)) break;
    }
    const key = chain.join(' < ');
    callers.set(key, (callers.get(key) ?? 0) + us);
  }
  const rows = [...callers].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [`self time of "${name}" by caller chain`, '', table(['self %', 'callers (nearest first)'], rows.map(([chain, us]) => [pct(us, busy), chain]), [1])].join('\n');
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

function main() {
  const { values, positionals } = parseArgs({
    options: { top: { type: 'string', default: '25' }, callers: { type: 'string', multiple: true, default: [] } },
    allowPositionals: true,
  });
  if (positionals.length === 0) {
    console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile>[@requests] [more...] [--top 25]');
    process.exit(1);
  }
  const summaries = positionals.map((arg) => {
    const match = /^(.*?)(?:@(\d+))?$/.exec(arg)!;
    const file = match[1]!;
    const requests = match[2] ? Number(match[2]) : undefined;
    const profile = readProfile(file);
    const summary = summariseProfile(profile, requests);
    console.log(formatSummary(path.basename(file), summary, Number(values.top)));
    console.log('');
    for (const name of values.callers) console.log(`${formatCallers(profile, name, Number(values.top))}\n`);
    return { title: path.basename(file, '.cpuprofile'), summary };
  });
  if (summaries.length === 2) console.log(formatComparison(summaries[0]!, summaries[1]!));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
