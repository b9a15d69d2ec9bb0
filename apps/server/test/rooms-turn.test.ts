// TURN for calls without a media server (issue 31, 6): the operator's TURN server is named by
// TURN_URLS and its TURN REST API secret (coturn's use-auth-secret); each participant entering a
// call gets a credential of their own that expires, and nobody else gets any. Checked against a
// real coturn (Debian's turnserver): the credential a participant receives allocates a relay, an
// expired or forged one does not. A long-term password in ICE_SERVERS is refused at start.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_STATE } from '@parla/contract/constants';
import type { CallJoinAck } from '@parla/contract/live';
import { loadConfig } from '../src/platform/config';
import { runProcess } from '../src/platform/process';
import { person } from './chat-helpers';
import { freePort, startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setState } from './room-helpers';

const SECRET = 'turn-shared-secret-of-this-test';
const hasCoturn = existsSync('/usr/bin/turnserver') && existsSync('/usr/bin/turnutils_uclient');

describe('TURN configuration', () => {
  it('has coturn to check credentials against', () => {
    expect(hasCoturn, 'turnserver is not installed (apt-get install coturn; the test command installs it)').toBe(true);
  });

  it('refuses a long-term TURN password in ICE_SERVERS, and TURN_URLS without its secret', () => {
    expect(() => loadConfig({ ICE_SERVERS: '[{"urls":"turn:turn.example.org:3478","username":"parla","credential":"secret"}]' })).toThrow(/TURN_URLS and TURN_SECRET/);
    expect(() => loadConfig({ TURN_URLS: 'turn:turn.example.org:3478' })).toThrow(/TURN_SECRET/);
    expect(() => loadConfig({ TURN_URLS: 'http://turn.example.org', TURN_SECRET: SECRET })).toThrow(/turn: or turns:/);
    expect(loadConfig({ TURN_URLS: 'turn:a.example:3478, turns:a.example:5349', TURN_SECRET: SECRET }).turn).toEqual({ urls: ['turn:a.example:3478', 'turns:a.example:5349'], secret: SECRET, ttlSeconds: 14_400 });
  });
});

describe.skipIf(!hasCoturn)('TURN credentials against coturn', () => {
  let server: TestServer;
  let coturn: ChildProcess;
  let port: number;
  const opened: LiveClient[] = [];
  beforeAll(async () => {
    port = await freePort();
    coturn = spawn(
      '/usr/bin/turnserver',
      ['-n', '--use-auth-secret', `--static-auth-secret=${SECRET}`, '--realm=parla.test', '--no-tls', '--no-dtls', '--listening-ip=127.0.0.1', '--relay-ip=127.0.0.1', `--listening-port=${port}`, '--allow-loopback-peers', '--no-cli', '--log-file=stdout', '--simple-log'],
      { stdio: 'ignore' },
    );
    server = await startServer({ TRANSLATION_PROVIDER: 'none', ICE_SERVERS: '[{"urls":"stun:127.0.0.1:3478"}]', TURN_URLS: `turn:127.0.0.1:${port}`, TURN_SECRET: SECRET, TURN_CREDENTIAL_TTL_SECONDS: '600' });
  });
  afterAll(async () => {
    for (const client of opened) client.close();
    await server.close();
    coturn.kill();
  });

  /** Whether coturn allocates a relay for these credentials (turnutils_uclient: one allocation, one packet). */
  const allocates = async (username: string, credential: string) => {
    const run = await runProcess('/usr/bin/turnutils_uclient', ['-u', username, '-w', credential, '-p', String(port), '-n', '1', '-m', '1', '-l', '100', '-y', '127.0.0.1'], { timeoutMs: 30_000 }).then(
      () => true,
      () => false,
    );
    return run;
  };

  it('gives each participant entering a call a credential of their own that coturn accepts, until it expires; strangers get none', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const zed = await person(server, 'Zed');
    const room = await createRoom(ana);
    await addParticipant(ana, room.id, ben);
    await setState(ana, room.id, ROOM_STATE.LIVE);
    const sockets = await Promise.all([ana, ben, zed].map((who) => connect(server.url, who)));
    opened.push(...sockets);
    const join = (client: LiveClient): Promise<CallJoinAck> => client.socket.timeout(5000).emitWithAck('call:join', { roomId: room.id });
    const anaIn = await join(sockets[0]!);
    const benIn = await join(sockets[1]!);
    if (!anaIn.ok || !benIn.ok) throw new Error('call:join refused');
    expect(anaIn.iceServers[0]).toEqual({ urls: 'stun:127.0.0.1:3478' });
    const anaTurn = anaIn.iceServers[1]!;
    const benTurn = benIn.iceServers[1]!;
    expect(anaTurn.urls).toEqual([`turn:127.0.0.1:${port}`]);
    // Their own, expiring within the TTL, and not the secret.
    expect(anaTurn.username).not.toBe(benTurn.username);
    const expiry = Number(anaTurn.username!.split(':')[0]);
    expect(expiry - Date.now() / 1000).toBeGreaterThan(590);
    expect(expiry - Date.now() / 1000).toBeLessThanOrEqual(600);
    expect(JSON.stringify(anaIn)).not.toContain(SECRET);
    // Someone not in the room gets nothing.
    expect(await join(sockets[2]!)).toEqual({ ok: false, error: 'not_found' });

    expect(await allocates(anaTurn.username!, anaTurn.credential!)).toBe(true);
    // Expired (signed by the same secret an hour ago), or forged: refused.
    const old = `${Math.floor(Date.now() / 1000) - 3600}:parla-1`;
    expect(await allocates(old, createHmac('sha1', SECRET).update(old).digest('base64'))).toBe(false);
    expect(await allocates(anaTurn.username!, 'forged')).toBe(false);
  });
});
