/**
 * First contact with an account, as a user runs it (the built CLI against emulators on 127.0.0.1):
 * `monsync emulator --clone-from` makes a replica that plans exactly like the original and can be
 * applied to without touching it, `--log-level` / `MONSYNC_LOG` trace every request without a
 * secret, and `monsync doctor` exits as its report says.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { PASSWORD, USERNAME, buildCli, runCli, startCli, type CliResult } from '../helpers/cli.js';
import { apiCall, basicAuth, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { alertSeed, smtpSeed } from './support.js';

let original: TestEmulator;
let dir: string;
const replicas: { stop(): Promise<CliResult> }[] = [];

beforeAll(async () => {
  await buildCli();
  original = await startTestEmulator({ seed: 'default' });
  dir = await mkdtemp(join(tmpdir(), 'monsync-first-contact-'));
  await realisticAccount(original);
}, 240_000);

afterAll(async () => {
  await Promise.all(replicas.splice(0).map((r) => r.stop()));
  await original?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * examples/realistic applied, then the account drifts (a timer changed, an alert deleted by hand),
 * plus what monsync never manages: unmanaged and foreign SMTP monitors, monitors of other types
 * (some not reporting `groups`, with quirky wire shapes), their alerts (one of another type), an
 * undeclared group.
 */
async function realisticAccount(emu: TestEmulator): Promise<void> {
  const seeded = await emu.control.seed({
    destinations: [{ label: 'night-sms', destination: '+15555550199', type: 'SMS', subscribed: true }],
    monitors: [
      smtpSeed('mx-by-hand'),
      smtpSeed('mx-other-team', { 'managed-by': 'other-team' }),
      { label: 'api-http', type: 'HTTP', hostname: 'api.example.com', port: '443', timer: '10', time_zone: 'UTC', data_label: 'milliseconds' },
      { label: 'bastion-ssh', type: 'SSH Port', ip_address: '192.0.2.7', port: 22, timer: 15, time_zone: 'UTC', meta: [], alerts: [], groups: [] },
      { label: 'submission-tcp', type: 'TCP Port', ip_address: 'smtp.example.com', port: 587, timer: 5, time_zone: 'UTC', meta: { site: 'fra' }, alerts: [], groups: [] },
    ],
  });
  const [byHand, , apiHttp, bastion] = seeded.monitors;
  await emu.control.seed({
    alerts: [
      alertSeed(byHand!, 'by hand is DOWN', [seeded.destinations[0]!]),
      { ...alertSeed(apiHttp!, 'api down'), timeout: null },
      { ...alertSeed(bastion!, 'bastion heartbeat'), type: 'Heartbeat Alert' },
    ],
    groups: [{ name: 'hand-made', monitors: [byHand, apiHttp] }],
  });
  const apply = await runCli(['apply', 'examples/realistic', '--auto-approve'], { url: emu.url });
  expect(apply.code, apply.stderr).toBe(0);
  const monitors = (await apiCall<{ monitor_list: { id: string; label: string }[] }>(emu, 'GET', '/v1/Config/Monitor/')).json.monitor_list;
  const eu2 = monitors.find((m) => m.label === 'mx-eu-2')!;
  expect((await apiCall(emu, 'PUT', `/v1/Config/Monitor/${eu2.id}/`, { body: { timer: 30 } })).status).toBe(200);
  const alerts = (await apiCall<{ alert_list: { id: string; subject_init: string }[] }>(emu, 'GET', '/v1/Config/Alert/')).json.alert_list;
  const gone = alerts.find((a) => a.subject_init === 'gateway unreachable')!;
  expect((await apiCall(emu, 'DELETE', `/v1/Config/Alert/${gone.id}/`)).status).toBe(200);
}

/** `monsync emulator ARGS --port 0` in the background, once it prints its address. */
/**
 * stdout and stderr are two pipes: a line the emulator wrote to stderr before its listening line on
 * stdout may still be on its way when that one has arrived. Waits (bounded) until stderr holds `text`.
 */
async function stderrOnceItHas(replica: { stderr: () => string }, text: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!replica.stderr().includes(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return replica.stderr();
}

async function startEmulatorCli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ url: string; stderr: () => string; stop(): Promise<CliResult> }> {
  const run = startCli(['emulator', ...args, '--port', '0'], { url: original.url, env, timeoutMs: 120_000 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(run.output().stdout);
    if (m) {
      const replica = {
        url: m[1]!,
        stderr: () => run.output().stderr,
        stop: async () => {
          run.child.kill('SIGTERM');
          return run.done;
        },
      };
      replicas.push(replica);
      return replica;
    }
    if (run.child.exitCode !== null || Date.now() > deadline) throw new Error(`no listening line:\n${run.output().stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The JSON plan, its target URL and creation time masked: what must match byte for byte. */
async function planJson(url: string, args: string[]): Promise<string> {
  const r = await runCli(['plan', ...args, '--json'], { url });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.replace(/"target": "[^"]*"/, '"target": "URL"').replace(/"created_at": "[^"]*"/, '"created_at": "TIME"');
}

function client(url: string): MonitoringClient {
  return new MonitoringClient({ baseUrl: url, username: USERNAME, password: PASSWORD });
}

async function canonical(url: string): Promise<unknown> {
  const c = client(url);
  try {
    const [monitors, alerts, groups, destinations] = await Promise.all([c.listMonitors(), c.listAlerts(), c.listGroups(), c.listDestinations()]);
    const members = await Promise.all(groups.map((g) => c.getGroup(g.id)));
    return { monitors, alerts, groups: members, destinations };
  } finally {
    await c.close();
  }
}

describe('monsync emulator --clone-from', () => {
  it('copies the account with one read-only pass and plans exactly like the original, for every configuration', async () => {
    await original.control.clearRequests();
    const replica = await startEmulatorCli(['--clone-from', original.url]);
    const reads = await original.control.requests();
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(reads.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(await stderrOnceItHas(replica, 'nothing was written there)')).toMatch(/copied http:\/\/127\.0\.0\.1:\d+: 17 monitors, 12 alerts, 5 groups, 5 destinations \(9 read requests in \d+ ms; nothing was written there\)/);
    expect(await stderrOnceItHas(replica, `a replica of ${original.url}`)).toContain(`a replica of ${original.url}`);

    // Read back through the client, the replica is the original: ids, types, meta, memberships.
    expect(await canonical(replica.url)).toEqual(await canonical(original.url));

    for (const args of [['examples/realistic'], ['examples/realistic', '--prune'], ['examples/small'], ['examples/realistic', '--target', 'mx-eu-*']]) {
      const [a, b] = [await planJson(original.url, args), await planJson(replica.url, args)];
      expect(JSON.parse(a).changes.length, `plan ${args.join(' ')} has changes`).toBeGreaterThan(0);
      expect(b, `plan ${args.join(' ')}`).toBe(a);
    }
  });

  it('is a place to rehearse: apply there, plan there with --detailed-exitcode, the original untouched', async () => {
    const before = await planJson(original.url, ['examples/realistic']);
    const replica = await startEmulatorCli(['--clone-from', original.url]);
    await original.control.clearRequests();
    const apply = await runCli(['apply', 'examples/realistic', '--auto-approve'], { url: replica.url });
    expect(apply.code, apply.stderr).toBe(0);
    const again = await runCli(['plan', 'examples/realistic', '--detailed-exitcode'], { url: replica.url });
    expect(again.code, again.stdout).toBe(0);
    expect(await original.control.requests()).toEqual([]);
    expect(await planJson(original.url, ['examples/realistic'])).toBe(before);

    // A reset without a seed name brings the copy back, for the next rehearsal.
    const reset = await fetch(`${replica.url}/_emulator/reset`, { method: 'POST' });
    expect(await reset.json()).toMatchObject({ seed: 'clone' });
    expect(await planJson(replica.url, ['examples/realistic'])).toBe(before);
  });

  it('keeps the replica in --state FILE: served again later without reading the account', async () => {
    const file = join(dir, 'replica.json');
    const first = await startEmulatorCli(['--clone-from', original.url, '--state', file]);
    expect(await stderrOnceItHas(first, `the replica is kept in ${file}`)).toContain(`the replica is kept in ${file}`);
    const expected = await planJson(original.url, ['examples/realistic']);
    expect((await first.stop()).code).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8')).format).toBe('monsync-emulator-state');

    await original.control.clearRequests();
    const again = await startEmulatorCli(['--state', file]);
    expect(await planJson(again.url, ['examples/realistic'])).toBe(expected);
    expect(await original.control.requests()).toEqual([]);
  });

  it('reads with the usual credentials and says so when they are refused, starting nothing', async () => {
    const r = await runCli(['emulator', '--clone-from', original.url, '--port', '0'], { url: original.url, env: { MONSYNC_PASSWORD: 'wrong-password-2' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: not authorised \(HTTP 401\)/);
    expect(r.stderr).not.toContain('wrong-password-2');
  });
});

describe('the HTTP trace from the command line', () => {
  const secrets = [PASSWORD, DEFAULT_CREDENTIALS.v2.clientSecret, basicAuth(USERNAME, PASSWORD).slice(6)];

  it('--log-level debug prints one line per request on stderr, the plan on stdout unchanged', async () => {
    const plain = await runCli(['plan', 'examples/realistic'], { url: original.url });
    const traced = await runCli(['--log-level', 'debug', 'plan', 'examples/realistic'], { url: original.url });
    expect(traced.stdout).toBe(plain.stdout);
    const lines = traced.stderr.split('\n').filter((l) => l.startsWith('monsync http '));
    expect(lines.map((l) => l.replace(/^monsync http \S+ (\S+ \S+) -> (\d+) .*: (.*)$/, '$1 $2 $3')).sort()).toEqual([
      'GET /v1/Config/Alert/ 200 done',
      'GET /v1/Config/AlertDestination/ 200 done',
      'GET /v1/Config/Group/ 200 done',
      // api-http does not report its groups: the four declared groups are read one by one.
      'GET /v1/Config/Group/302/ 200 done',
      'GET /v1/Config/Group/303/ 200 done',
      'GET /v1/Config/Group/304/ 200 done',
      'GET /v1/Config/Group/305/ 200 done',
      'GET /v1/Config/Monitor/ 200 done',
    ]);
    expect(lines.join('\n')).toMatch(/attempt 1, 0 B sent, \d+ B received/);
  });

  it('MONSYNC_LOG=trace with MONSYNC_LOG_FILE writes the retries of an apply under faults to the file, bodies included, never a secret', async () => {
    const replica = await startEmulatorCli(['--clone-from', original.url]);
    await fetch(`${replica.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error_rate: 0.3, error_status: 503, methods: ['PUT', 'GET'], seed: 7 }),
    });
    const file = join(dir, 'trace.log');
    const r = await runCli(['apply', 'examples/realistic', '--auto-approve'], {
      url: replica.url,
      env: { MONSYNC_LOG: 'trace', MONSYNC_LOG_FILE: file, MONSYNC_CLIENT_ID: DEFAULT_CREDENTIALS.v2.clientId, MONSYNC_CLIENT_SECRET: DEFAULT_CREDENTIALS.v2.clientSecret },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('monsync http ');
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/ -> 503 in \d+ ms, attempt 1, .*: retry 1 of 4 in \d+ ms/);
    expect(text).toMatch(/ PUT \/v1\/Config\/Monitor\/\d+\/ -> 200 .*: done\n {4}> authorization: Basic \*\*\*\n {4}> \{[^\n]*"timer":5[^\n]*\}/);
    for (const s of secrets) expect(text.includes(s), `the trace shows ${s}`).toBe(false);
  });
});

describe('monsync doctor from the command line', () => {
  it('exits 0 on a healthy set-up and 1 with the problem named, also as JSON', async () => {
    const ok = await runCli(['doctor', 'examples/realistic'], { url: original.url });
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/No problems/);
    const bad = await runCli(['doctor', '--json'], { url: original.url, env: { MONSYNC_PASSWORD: 'wrong-password-3' } });
    expect(bad.code).toBe(1);
    const report = JSON.parse(bad.stdout) as { ok: boolean; checks: { id: string; status: string }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.id === 'v1')?.status).toBe('problem');
    expect(bad.stdout + bad.stderr).not.toContain('wrong-password-3');
  });
});
