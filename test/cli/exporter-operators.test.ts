/**
 * `monsync exporter`'s runner in process (captureIo) against a test emulator, on what operators of
 * other exporters meet: the token file bounded and re-read on SIGHUP, SIGHUP never ending the
 * process, `--web.config.file` refused at start when bad, an account without credentials not
 * stopping the others, a monitor labelled "" exported, and monsync.yaml used when no PATH is given.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import bcrypt from 'bcryptjs';
import { Command } from 'commander';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../src/cli/exporter.js';
import { DEFAULT_LISTEN, runExporter, type ExporterOptions } from '../../src/cli/exporter-run.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import type { Env } from '../../src/api/connect.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { makeExporterCertificates } from '../helpers/exporter-tls.js';
import { captureIo, type CapturedIo } from '../helpers/io.js';
import { v1Env } from '../ops/helpers.js';

/** The repository's top (the docs and examples the port and container tests read). */
const ROOT = join(import.meta.dirname, '..', '..');

let emu: TestEmulator;
let dir: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
  dir = await mkdtemp(join(tmpdir(), 'monsync-exporter-ops-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

const options = (extra: Partial<ExporterOptions> = {}): ExporterOptions => ({ listen: '127.0.0.1:0', interval: '1h', ...extra });

/** Starts the runner in `cwd`; resolves once it listens. */
async function start(paths: string[], opts: ExporterOptions, cwd = dir, env: Env = v1Env(emu.url)): Promise<{ io: CapturedIo; url: string; stop: () => Promise<number> }> {
  const io = captureIo(env, { cwd, now: () => Date.now() });
  const running = runExporter(paths, opts, io);
  running.catch(() => undefined);
  const until = Date.now() + 20_000;
  while (!/listening on /.test(io.stdout)) {
    if (Date.now() > until) throw new Error(`did not listen:\n${io.stderr}`);
    await Promise.race([running, sleep(20)]);
  }
  return {
    io,
    url: /listening on (\S+)/.exec(io.stdout)![1]!,
    stop: async () => {
      io.interrupt('SIGTERM');
      return running;
    },
  };
}

async function get(url: string, headers: Record<string, string> = {}, dispatcher?: Agent): Promise<{ status: number; body: string }> {
  const res = await request(url, { headers, ...(dispatcher ? { dispatcher } : {}) });
  return { status: res.statusCode, body: await res.body.text() };
}

async function until(check: () => Promise<boolean> | boolean, what: () => string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`never: ${what()}`);
    await sleep(50);
  }
}

describe('monsync exporter, as operators of other exporters expect it', () => {
  it('refuses a --token-file that is not a regular file of bounded size, at once (a FIFO, a directory, /dev/zero, a large file)', async () => {
    const fifo = join(dir, 'token-fifo');
    execFileSync('mkfifo', [fifo]);
    await mkdir(join(dir, 'token-dir'));
    await writeFile(join(dir, 'token-large'), 'x'.repeat(10_000));
    const io = captureIo(v1Env(emu.url), { cwd: dir });
    for (const [file, message] of [
      ['token-fifo', /--token-file: token-fifo is not a regular file/],
      ['token-dir', /--token-file: token-dir is not a regular file/],
      ['/dev/zero', /--token-file: \/dev\/zero is not a regular file/],
      ['token-large', /--token-file: token-large is 10000 bytes: a token file holds one token/],
    ] as const) {
      const outcome = await Promise.race([runExporter([], options({ tokenFile: file }), io).then(() => 'started', (err: Error) => err.message), sleep(3_000).then(() => 'still waiting after 3 s')]);
      expect(outcome, file).toMatch(message);
    }
    expect(io.stdout).toBe('');
  });

  it('reads the token file again on SIGHUP, says so in the log, and keeps running', async () => {
    await writeFile(join(dir, 'token'), 'tok-first\n');
    const run = await start([], options({ tokenFile: 'token' }));
    try {
      expect((await get(`${run.url}/metrics`, { authorization: 'Bearer tok-first' })).status).toBe(200);
      await writeFile(join(dir, 'token'), 'tok-second\n');
      expect(run.io.hangup()).toBe(true);
      await until(async () => (await get(`${run.url}/metrics`, { authorization: 'Bearer tok-second' })).status === 200, () => run.io.stderr);
      expect((await get(`${run.url}/metrics`, { authorization: 'Bearer tok-first' })).status).toBe(401);
      expect(run.io.stderr).toMatch(/SIGHUP: read the token file, the configuration again; reading now/);
      // A token file gone bad is told, and the last token kept.
      await writeFile(join(dir, 'token'), 'two tokens\n');
      run.io.hangup();
      await until(() => /SIGHUP: --token-file: token must hold one token .*; the last token stays/.test(run.io.stderr), () => run.io.stderr);
      expect((await get(`${run.url}/metrics`, { authorization: 'Bearer tok-second' })).status).toBe(200);
      expect(run.io.stderr).not.toMatch(/tok-(first|second)/);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('reads the account and the configuration at once on SIGHUP, instead of waiting out --interval', async () => {
    const cwd = await mkdtemp(join(dir, 'hup-'));
    await writeFile(join(cwd, 'monsync.yaml'), 'version: 1\nmonitors: []\n');
    const run = await start(['monsync.yaml'], options({ interval: '1h' }), cwd);
    try {
      await until(async () => /^monsync_configuration_valid 1$/m.test((await get(`${run.url}/metrics`)).body), () => run.io.stderr);
      await writeFile(join(cwd, 'monsync.yaml'), 'version: 1\nmonitors:\n  - label: broken\n    timer: 7\n');
      run.io.hangup();
      await until(async () => /^monsync_configuration_valid 0$/m.test((await get(`${run.url}/metrics`)).body), () => run.io.stderr, 10_000);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('refuses a bad --web.config.file before listening or reading, naming the file and the field', async () => {
    await writeFile(join(dir, 'web-bad.yml'), 'basic_auth_users:\n  prometheus: not-a-hash\n');
    const io = captureIo(v1Env(emu.url), { cwd: dir });
    await emu.control.clearRequests();
    await expect(runExporter([], options({ 'web.config.file': 'web-bad.yml' }), io)).rejects.toThrow(/web-bad\.yml:2:15: basic_auth_users\.prometheus: must be a bcrypt hash/);
    await expect(runExporter([], options({ 'web.config.file': 'web-missing.yml' }), io)).rejects.toThrow(/--web\.config\.file: cannot read .*web-missing\.yml: ENOENT/);
    expect(io.stdout).toBe('');
    expect(await emu.control.requests()).toEqual([]);
  });

  it('serves https with basic auth from --web.config.file', async () => {
    const certs = await makeExporterCertificates();
    await writeFile(join(dir, 'tls.crt'), certs.server.cert);
    await writeFile(join(dir, 'tls.key'), certs.server.key);
    await writeFile(join(dir, 'web.yml'), `tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\nbasic_auth_users:\n  prometheus: "${bcrypt.hashSync('scrape-pass', 4)}"\n`);
    const run = await start([], options({ 'web.config.file': 'web.yml' }));
    const agent = new Agent({ connect: { ca: certs.ca } });
    try {
      expect(run.url).toMatch(/^https:/);
      expect((await get(`${run.url}/metrics`, {}, agent)).status).toBe(401);
      const ok = await get(`${run.url}/metrics`, { authorization: `Basic ${Buffer.from('prometheus:scrape-pass').toString('base64')}` }, agent);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatch(/^# TYPE monsync_up gauge$/m);
    } finally {
      await agent.close();
      expect(await run.stop()).toBe(0);
    }
  });

  it('exports monsync_up 0 and a log line for a declared account without credentials, while the others run', async () => {
    const cwd = await mkdtemp(join(dir, 'accounts-'));
    await writeFile(join(cwd, 'monsync.yaml'), 'version: 1\nsettings:\n  accounts:\n    staging: { paths: [staging.yaml] }\n    production: { paths: [production.yaml] }\n');
    for (const name of ['staging', 'production']) await writeFile(join(cwd, `${name}.yaml`), 'version: 1\nmonitors: []\n');
    // production's credentials were never set.
    const env = { MONSYNC_STAGING_URL: emu.url, MONSYNC_STAGING_USERNAME: DEFAULT_CREDENTIALS.v1.user, MONSYNC_STAGING_PASSWORD: DEFAULT_CREDENTIALS.v1.password };
    const run = await start([], options({ allAccounts: true }), cwd, env);
    try {
      await until(async () => /^monsync_up\{account="staging"\} 1$/m.test((await get(`${run.url}/metrics`)).body), () => run.io.stderr);
      const body = (await get(`${run.url}/metrics`)).body;
      expect(body).toMatch(/^monsync_up\{account="production"\} 0$/m);
      expect(run.io.stderr).toMatch(/account production: .*MONSYNC_PRODUCTION_\w+.*; exporting monsync_up 0 for it/);
      expect((await get(`${run.url}/-/ready`)).status).toBe(200);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('gives a monitor labelled "" its monsync_monitor_up, as every other monitor', async () => {
    const other = await startTestEmulator({ seed: 'empty' });
    try {
      await other.control.seed({
        monitors: [
          { label: '', type: 'smtp', ip_address: 'mx', test_account: 'a@example.org', timer: 5, time_zone: 'UTC', meta: {} },
          { label: 'mx-named', type: 'smtp', ip_address: 'mx', test_account: 'b@example.org', timer: 5, time_zone: 'UTC', meta: {} },
        ],
      });
      await other.control.simulation({ failure_rate: 0 });
      await other.control.advance(33 * 60);
      const run = await start([], options(), dir, v1Env(other.url));
      try {
        await until(async () => /^monsync_up 1$/m.test((await get(`${run.url}/metrics`)).body), () => run.io.stderr);
        const body = (await get(`${run.url}/metrics`)).body;
        expect(body).toMatch(/^monsync_monitor_up\{monitor="mx-named",id="\d+",type="smtp"\} 1$/m);
        expect(body).toMatch(/^monsync_monitor_up\{monitor="",id="\d+",type="smtp"\} 1$/m);
        expect(body).toMatch(/^monsync_monitor_last_test_timestamp_seconds\{monitor="",id="\d+",type="smtp"\} \d+$/m);
        expect(body).toMatch(/^monsync_monitor_round_trip_seconds\{monitor="",id="\d+",type="smtp"\} \d/m);
      } finally {
        expect(await run.stop()).toBe(0);
      }
    } finally {
      await other.close();
    }
  });

  it('exports the drift of monsync.yaml when no PATH is given and there is one, as --help says, and none without it', async () => {
    const cwd = await mkdtemp(join(dir, 'default-'));
    const bare = await start([], options(), cwd);
    try {
      await until(async () => /^monsync_up 1$/m.test((await get(`${bare.url}/metrics`)).body), () => bare.io.stderr);
      expect((await get(`${bare.url}/metrics`)).body).not.toMatch(/^monsync_configuration_valid/m);
    } finally {
      expect(await bare.stop()).toBe(0);
    }
    await writeFile(join(cwd, 'monsync.yaml'), 'version: 1\nmonitors:\n  - label: mx-new\n    ip_address: mx\n    test_account: n@example.org\n    timer: 5\n    time_zone: UTC\n');
    const run = await start([], options(), cwd);
    try {
      await until(async () => /^monsync_drift_changes\{action="add"\} 1$/m.test((await get(`${run.url}/metrics`)).body), () => run.io.stderr);
      expect((await get(`${run.url}/metrics`)).body).toMatch(/^monsync_configuration_valid 1$/m);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('listens by default on a port outside the 9100-9999 range Prometheus allocated to exporters, the same in --help, the docs and the example scrape configuration', async () => {
    const port = Number(DEFAULT_LISTEN.split(':')[1]);
    expect(port < 9100 || port > 9999, `${port} is in Prometheus's exporter range, allocated to others`).toBe(true);
    const program = new Command();
    register(program);
    const listen = program.commands.find((c) => c.name() === 'exporter')!.options.find((o) => o.long === '--listen')!;
    expect(listen.defaultValue).toBe(DEFAULT_LISTEN);
    for (const file of ['docs/exporter.md', 'docs/commands.md', 'docs/ci.md', 'README.md', 'examples/prometheus/prometheus.yml', 'examples/container/Containerfile']) {
      const text = await readFile(join(ROOT, file), 'utf8');
      expect(text, file).toContain(`:${port}`);
      expect(text, file).not.toMatch(/:9816\b/);
    }
  });

  it('shows a container image and a systemd unit that start monsync with node directly (no npx, no shell), so SIGTERM and SIGHUP reach it', async () => {
    const doc = await readFile(join(ROOT, 'docs/exporter.md'), 'utf8');
    const dockerfile = /```dockerfile\n([\s\S]*?)```/.exec(doc)![1]!;
    const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(entrypoint).not.toContain('npx');
    expect(entrypoint.slice(0, 2)).toEqual(['/usr/bin/tini', '--']);
    expect(entrypoint.slice(2, 4)).toEqual(['node', 'node_modules/monsync/bin/monsync.js']);
    const execStart = /^ExecStart=(.*)$/m.exec(doc)![1]!;
    expect(execStart).toMatch(/^\/usr\/bin\/node node_modules\/monsync\/bin\/monsync\.js exporter /);
    expect(doc).toMatch(/^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
  });
});
