// A real chat server as the fan-out bench's peer (shared/design/peer-ejabberd.md): ejabberd 23.01
// from Debian, multi-user chat rooms with the message archive (mod_mam) on PostgreSQL, started
// from a temporary folder as its own node, on a free loopback port, its users written straight
// into its database (plain passwords; SCRAM is offered from them). Stopped by the PIDs it started.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, cpuTimeUs, freePort, onCleanup, ROOT, sleep, StartError } from './harness';

const EJABBERDCTL = '/usr/sbin/ejabberdctl';
const SCHEMA = '/usr/share/ejabberd/sql/pg.sql';

export interface Ejabberd {
  port: number;
  domain: string;
  mucDomain: string;
  /** The Erlang VM running it (its CPU is the server's). */
  pid(): number | undefined;
  cpuUs(): number | undefined;
  /** Creates users with these names and passwords (straight into its database). */
  addUsers(users: { username: string; password: string }[]): Promise<void>;
  /** Messages the archive holds for a room (mod_mam, on PostgreSQL). */
  archived(): Promise<number>;
}

/** Installs ejabberd and its PostgreSQL driver from Debian when missing (scripts/lib.sh waits for the package lock). */
export function ensureEjabberd(): void {
  if (spawnSync('dpkg', ['-s', 'ejabberd', 'erlang-p1-pgsql'], { stdio: 'ignore' }).status === 0) return;
  console.log('installing ejabberd and erlang-p1-pgsql (Debian packages)...');
  const result = spawnSync('bash', ['-c', '. scripts/lib.sh && apt_install ejabberd erlang-p1-pgsql'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new StartError('ejabberd could not be installed (apt-get install ejabberd erlang-p1-pgsql)');
}

function config(options: { port: number; database: string; host: string; dbPort: number; user: string; password: string }) {
  return `hosts: [localhost]
loglevel: warning
sql_type: pgsql
sql_server: ${JSON.stringify(options.host)}
sql_port: ${options.dbPort}
sql_database: ${JSON.stringify(options.database)}
sql_username: ${JSON.stringify(options.user)}
sql_password: ${JSON.stringify(options.password)}
sql_pool_size: 10
default_db: sql
auth_method: sql
auth_password_format: plain
# The bench's XMPP client (@xmpp/client 0.13) fails SCRAM against this server ("Response decoding
# failed"); PLAIN on loopback costs less of the client and nothing of the measured path.
disable_sasl_mechanisms: ["SCRAM-SHA-1", "SCRAM-SHA-256", "SCRAM-SHA-512", "X-OAUTH2"]
listen:
  -
    port: ${options.port}
    ip: "127.0.0.1"
    module: ejabberd_c2s
    backlog: 1024
    max_stanza_size: 262144
    shaper: c2s_shaper
    access: c2s
    starttls_required: false
shaper_rules:
  c2s_shaper: none
  max_user_sessions: 10
access_rules:
  c2s:
    allow: all
modules:
  mod_muc:
    host: conference.localhost
    access: all
    access_create: all
    access_persistent: all
    history_size: 0
    max_users: 200
    max_user_conferences: 100
    default_room_options:
      persistent: true
      mam: true
      logging: false
  mod_mam:
    db_type: sql
    default: always
`;
}

export async function startEjabberd(tmp: string): Promise<Ejabberd> {
  ensureEjabberd();
  const databaseUrl = await createDatabase();
  const url = new URL(databaseUrl);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  onCleanup(() => db.end());
  await db.query(await readFile(SCHEMA, 'utf8'));

  const dir = path.join(tmp, `ejabberd-${randomBytes(3).toString('hex')}`);
  const conf = path.join(dir, 'conf');
  for (const sub of ['conf', 'logs', 'spool']) await mkdir(path.join(dir, sub), { recursive: true });
  const port = await freePort();
  await writeFile(
    path.join(conf, 'ejabberd.yml'),
    config({ port, database: url.pathname.slice(1), host: url.hostname || '127.0.0.1', dbPort: Number(url.port || 5432), user: decodeURIComponent(url.username || 'postgres'), password: decodeURIComponent(url.password) }),
  );
  // The system's ejabberdctl.cfg without its config path (else /etc/ejabberd/ejabberd.yml, with
  // mod_mqtt on 1883, is loaded) and without its PID file in /run.
  const ctl = (await readFile('/etc/ejabberd/ejabberdctl.cfg', 'utf8'))
    .split('\n')
    .filter((line) => !/^\s*(EJABBERD_CONFIG_PATH|EJABBERD_PID_PATH)=/.test(line))
    .join('\n');
  await writeFile(path.join(conf, 'ejabberdctl.cfg'), ctl);
  await copyFile('/etc/ejabberd/inetrc', path.join(conf, 'inetrc'));
  // ejabberdctl switches to the ejabberd user: the folder must be its own, and the temporary
  // folder above it passable.
  spawnSync('chown', ['-R', 'ejabberd:ejabberd', dir]);
  await chmod(tmp, 0o711);
  const node = `parlabench${randomBytes(3).toString('hex')}@localhost`;
  const args = ['--config-dir', conf, '--config', path.join(conf, 'ejabberd.yml'), '--logs', path.join(dir, 'logs'), '--spool', path.join(dir, 'spool'), '--node', node];
  // Started as the ejabberd user straight away: through the script's `su` the VM would get that
  // user's sign-in limits (1,024 open files: too few for a thousand connections), not ours.
  const account = { uid: Number(spawnSync('id', ['-u', 'ejabberd'], { encoding: 'utf8' }).stdout), gid: Number(spawnSync('id', ['-g', 'ejabberd'], { encoding: 'utf8' }).stdout) };
  const asEjabberd = { ...account, env: { ...process.env, HOME: '/var/lib/ejabberd', USER: 'ejabberd', LOGNAME: 'ejabberd' } };
  const child: ChildProcess = spawn(EJABBERDCTL, [...args, 'foreground'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...asEjabberd });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const beam = () => {
    // The VM runs as the ejabberd user, started under the script: found by its node name.
    const found = spawnSync('pgrep', ['-f', '--', node.split('@')[0]!], { encoding: 'utf8' }).stdout.split('\n').map(Number).filter((pid) => pid > 0);
    const vms = found.filter((pid) => {
      try {
        return spawnSync('cat', [`/proc/${pid}/comm`], { encoding: 'utf8' }).stdout.trim() === 'beam.smp';
      } catch {
        return false;
      }
    });
    return vms[0];
  };
  onCleanup(async () => {
    // Our own node only: the stop command, then the PIDs we started.
    spawnSync(EJABBERDCTL, [...args, 'stop'], { stdio: 'ignore', timeout: 30_000, ...asEjabberd });
    const vm = beam();
    if (vm) spawnSync('kill', [String(vm)]);
    // Gone before the database it writes to is dropped.
    for (let waited = 0; beam() !== undefined && waited < 10_000; waited += 200) await sleep(200);
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });
  const deadline = Date.now() + 60_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new StartError(`ejabberd did not start (port ${port}):\n${output}`);
    await sleep(250);
  }
  let vmPid: number | undefined;
  return {
    port,
    domain: 'localhost',
    mucDomain: 'conference.localhost',
    pid: () => (vmPid ??= beam()),
    cpuUs: () => cpuTimeUs((vmPid ??= beam())),
    async addUsers(users) {
      for (let at = 0; at < users.length; at += 500) {
        const batch = users.slice(at, at + 500);
        const values = batch.map((_, index) => `($${index * 2 + 1}, $${index * 2 + 2})`).join(', ');
        await db.query(`insert into users (username, password) values ${values}`, batch.flatMap((user) => [user.username, user.password]));
      }
    },
    async archived() {
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from archive where kind = 'groupchat'`);
      return rows[0]?.n ?? 0;
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
