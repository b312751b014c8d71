/**
 * `monsync exporter`'s runner in process (captureIo) against a test emulator: usage errors before
 * anything listens, scrapes that never reach the service, the bearer token, and a configuration
 * that stops validating reported as a metric and in the log while the exporter keeps running.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExporter, type ExporterOptions } from '../../src/cli/exporter.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { UsageError } from '../../src/util/errors.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo, type CapturedIo } from '../helpers/io.js';
import { v1Env } from '../ops/helpers.js';

let emu: TestEmulator;
let dir: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
  dir = await mkdtemp(join(tmpdir(), 'monsync-exporter-cli-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

const options = (extra: Partial<ExporterOptions> = {}): ExporterOptions => ({ listen: '127.0.0.1:0', interval: '1s', ...extra });

/** Starts the runner; resolves once it listens, with its URL and a way to stop it (SIGTERM) that returns its exit code. */
async function start(paths: string[], opts: ExporterOptions): Promise<{ io: CapturedIo; url: string; stop: () => Promise<number> }> {
  const io = captureIo(v1Env(emu.url), { cwd: dir, now: () => Date.now() });
  const running = runExporter(paths, opts, io);
  running.catch(() => undefined);
  const until = Date.now() + 20_000;
  while (!/listening on /.test(io.stdout)) {
    if (Date.now() > until) throw new Error(`did not listen:\n${io.stderr}`);
    await Promise.race([running, sleep(20)]);
  }
  const url = /listening on (\S+)/.exec(io.stdout)![1]!;
  return {
    io,
    url,
    stop: async () => {
      io.interrupt('SIGTERM');
      return running;
    },
  };
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const res = await request(url, { headers });
  return { status: res.statusCode, body: await res.body.text() };
}

async function until(url: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  let body = '';
  while (Date.now() < end) {
    body = (await get(`${url}/metrics`)).body;
    if (pattern.test(body)) return body;
    await sleep(100);
  }
  throw new Error(`no ${pattern} in:\n${body}`);
}

describe('monsync exporter (runner)', () => {
  it('refuses a bad --listen, --interval or token file before listening or reading', async () => {
    await writeFile(join(dir, 'empty-token'), '\n');
    const io = captureIo(v1Env(emu.url), { cwd: dir });
    await expect(runExporter([], options({ listen: '127.0.0.1' }), io)).rejects.toThrow(/--listen must be HOST:PORT .*got "127\.0\.0\.1"/);
    await expect(runExporter([], options({ interval: '0s' }), io)).rejects.toThrow(UsageError);
    await expect(runExporter([], options({ tokenFile: 'empty-token' }), io)).rejects.toThrow(/--token-file: empty-token must hold one token/);
    await expect(runExporter([], options({ tokenFile: 'missing' }), io)).rejects.toThrow(/--token-file: cannot read missing: ENOENT/);
    expect(io.stdout).toBe('');
  });

  it('reads once per interval: scrapes between two reads send the service nothing', async () => {
    const run = await start([], options({ interval: '1h' }));
    try {
      while ((await get(`${run.url}/-/ready`)).status !== 200) await sleep(50);
      await emu.control.clearRequests();
      for (let i = 0; i < 25; i++) expect((await get(`${run.url}/metrics`)).body).toContain('monsync_up 1');
      expect(await emu.control.requests()).toEqual([]);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('wants the token of --token-file on /metrics, and never shows it or the password', async () => {
    await writeFile(join(dir, 'token'), 'tok-0123456789abcdef\n');
    const run = await start([], options({ tokenFile: 'token' }));
    try {
      expect((await get(`${run.url}/metrics`)).status).toBe(401);
      expect((await get(`${run.url}/-/healthy`)).status).toBe(200);
      while ((await get(`${run.url}/-/ready`)).status !== 200) await sleep(50);
      const ok = await get(`${run.url}/metrics`, { authorization: 'Bearer tok-0123456789abcdef' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatch(/^monsync_up 1$/m);
      for (const secret of ['tok-0123456789abcdef', DEFAULT_CREDENTIALS.v1.password]) {
        expect(`${run.io.stdout}${run.io.stderr}${ok.body}`).not.toContain(secret);
      }
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('serves every declared account from one process, each series labelled with its account', async () => {
    const other = await startTestEmulator({ seed: 'empty' });
    try {
      await other.control.seed({ monitors: [{ label: 'mx-prod', type: 'smtp', ip_address: 'mx', test_account: 'p@example.org', timer: 5, time_zone: 'UTC', meta: {} }] });
      const accountsDir = await mkdtemp(join(dir, 'accounts-'));
      await writeFile(join(accountsDir, 'monsync.yaml'), 'version: 1\nsettings:\n  accounts:\n    staging: { paths: [staging.yaml] }\n    production: { paths: [production.yaml] }\n');
      for (const name of ['staging', 'production']) await writeFile(join(accountsDir, `${name}.yaml`), 'version: 1\nmonitors: []\n');
      const env = {
        MONSYNC_STAGING_URL: emu.url,
        MONSYNC_STAGING_USERNAME: DEFAULT_CREDENTIALS.v1.user,
        MONSYNC_STAGING_PASSWORD: DEFAULT_CREDENTIALS.v1.password,
        MONSYNC_PRODUCTION_URL: other.url,
        MONSYNC_PRODUCTION_USERNAME: DEFAULT_CREDENTIALS.v1.user,
        MONSYNC_PRODUCTION_PASSWORD: DEFAULT_CREDENTIALS.v1.password,
      };
      const io = captureIo(env, { cwd: accountsDir, now: () => Date.now() });
      const running = runExporter([], options({ allAccounts: true }), io);
      running.catch(() => undefined);
      while (!/listening on /.test(io.stdout)) await Promise.race([running, sleep(20)]);
      const url = /listening on (\S+)/.exec(io.stdout)![1]!;
      try {
        await until(url, /^monsync_up\{account="production"\} 1$/m);
        const body = await until(url, /^monsync_up\{account="staging"\} 1$/m);
        expect(body).toMatch(/^monsync_monitor_alert_active\{monitor="mx-prod",id="\d+",type="smtp",account="production"\} 0$/m);
        expect(body).toMatch(/^monsync_monitor_alert_active\{monitor="legacy-mx",id="\d+",type="smtp",account="staging"\} 0$/m);
        // The accounts. files are their configuration: drift per account.
        expect(body).toMatch(/^monsync_configuration_valid\{account="staging"\} 1$/m);
      } finally {
        io.interrupt('SIGTERM');
        expect(await running).toBe(0);
      }
    } finally {
      await other.close();
    }
  });

  it('reports a configuration that stops validating as monsync_configuration_valid 0 and in the log, and recovers', async () => {
    const file = join(dir, 'monsync.yaml');
    await writeFile(file, 'version: 1\nmonitors: []\n');
    const run = await start(['monsync.yaml'], options());
    try {
      expect(await until(run.url, /^monsync_configuration_valid 1$/m)).toMatch(/^monsync_monitor_in_maintenance\{monitor="legacy-mx",id="\d+",type="smtp"\} 0$/m);
      await writeFile(file, 'version: 1\nmonitors:\n  - label: mx-broken\n    timer: 7\n');
      const broken = await until(run.url, /^monsync_configuration_valid 0$/m);
      expect(broken).toMatch(/^monsync_up 1$/m);
      expect(broken).not.toMatch(/^monsync_drift_changes\{/m);
      expect(broken).not.toMatch(/^monsync_monitor_in_maintenance\{/m);
      expect(run.io.stderr).toMatch(/the configuration has \d+ problems?; the drift is not known until it is fixed/);
      expect(run.io.stderr).toMatch(/monsync\.yaml:\d+:\d+: .*timer/);
      await writeFile(file, 'version: 1\nmonitors: []\n');
      await until(run.url, /^monsync_configuration_valid 1$/m);
      expect(run.io.stderr).toMatch(/the configuration loads and plans again/);
      expect(run.io.stderr).not.toMatch(/\n\s+at /);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });
});
