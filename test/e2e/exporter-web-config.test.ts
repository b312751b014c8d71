/**
 * `monsync exporter --web.config.file` (built CLI) scraped by a real Prometheus (Debian package
 * prometheus) over TLS with basic auth, both configured in Prometheus's own scrape configuration
 * (`scheme: https`, `tls_config.ca_file`, `basic_auth`): the target with the right password is
 * up; one with a wrong password is down with a 401. SIGHUP, as `systemctl reload` sends it, leaves
 * the process running. Certificates are made here; every process started here is stopped here.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import bcrypt from 'bcryptjs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { buildCli, expectCleanOutput, startCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { makeExporterCertificates } from '../helpers/exporter-tls.js';
import { startPrometheus, type TestPrometheus } from '../helpers/prometheus.js';

const PASSWORD = 'scrape-0123456789';

let emu: TestEmulator;
let dir: string;
let exporter: { child: ChildProcess; done: Promise<CliResult>; output: () => CliResult };
let exporterUrl: string;
let prometheus: TestPrometheus | undefined;
let prometheusUrl: string;

interface Target {
  labels: { job: string };
  health: string;
  lastError: string;
}

async function targets(): Promise<Target[]> {
  const res = await request(`${prometheusUrl}/api/v1/targets?state=active`);
  const body = (await res.body.json()) as { data: { activeTargets: Target[] } };
  return body.data.activeTargets;
}

async function eventually(what: string, check: (t: Target[]) => boolean, timeoutMs = 45_000): Promise<Target[]> {
  const until = Date.now() + timeoutMs;
  let last: Target[] = [];
  while (Date.now() < until) {
    last = await targets();
    if (check(last)) return last;
    await sleep(250);
  }
  throw new Error(`${what} never held; targets ${JSON.stringify(last)}\nexporter log:\n${exporter.output().stderr}\nprometheus log:\n${(prometheus?.log() ?? '').slice(-2000)}`);
}

const job = (t: Target[], name: string) => t.find((x) => x.labels.job === name);

beforeAll(async () => {
  for (const tool of ['prometheus', 'promtool']) {
    // A missing tool fails the suite (never skips it): .ci/run installs the Debian package.
    expect(spawnSync(tool, ['--version']).status, `${tool} must be installed (Debian package prometheus)`).toBe(0);
  }
  dir = await mkdtemp(join(tmpdir(), 'monsync-exporter-tls-e2e-'));
  emu = await startTestEmulator({ seed: 'default' });
  await buildCli();
  const certs = await makeExporterCertificates();
  await writeFile(join(dir, 'server.crt'), certs.server.cert);
  await writeFile(join(dir, 'server.key'), certs.server.key);
  await writeFile(join(dir, 'ca.crt'), certs.ca);
  await writeFile(join(dir, 'password'), PASSWORD);
  await writeFile(join(dir, 'wrong-password'), 'not-the-password');
  // Cost 10, as `htpasswd -nBC 10` makes it: what a user's file holds.
  await writeFile(join(dir, 'web.yml'), ['tls_server_config:', '  cert_file: server.crt', '  key_file: server.key', 'basic_auth_users:', `  prometheus: '${bcrypt.hashSync(PASSWORD, 10)}'`, ''].join('\n'));

  exporter = startCli(['exporter', '--listen', '127.0.0.1:0', '--interval', '1s', '--web.config.file', 'web.yml'], { url: emu.url, cwd: dir, timeoutMs: 600_000 });
  const started = Date.now();
  while (!/listening on /.test(exporter.output().stdout)) {
    if (Date.now() - started > 30_000 || exporter.child.exitCode !== null) throw new Error(`the exporter did not start:\n${exporter.output().stderr}`);
    await sleep(50);
  }
  exporterUrl = /listening on (\S+)/.exec(exporter.output().stdout)![1]!;
  expect(exporterUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

  const target = new URL(exporterUrl).host;
  const scrape = (name: string, passwordFile: string) => [
    `  - job_name: ${name}`,
    '    scheme: https',
    '    tls_config:',
    `      ca_file: ${join(dir, 'ca.crt')}`,
    '    basic_auth:',
    '      username: prometheus',
    `      password_file: ${join(dir, passwordFile)}`,
    '    static_configs:',
    `      - targets: ['${target}']`,
  ];
  await writeFile(join(dir, 'prometheus.yml'), ['global:', '  scrape_interval: 1s', '  scrape_timeout: 1s', 'scrape_configs:', ...scrape('monsync', 'password'), ...scrape('monsync-wrong-password', 'wrong-password'), ''].join('\n'));
  prometheus = await startPrometheus(dir);
  prometheusUrl = prometheus.url;
}, 120_000);

afterAll(async () => {
  const stopped = prometheus?.stop();
  if (exporter && exporter.child.exitCode === null) exporter.child.kill('SIGKILL');
  await stopped;
  await emu?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('monsync exporter with --web.config.file, scraped by Prometheus', () => {
  it('is scraped over TLS with basic auth from Prometheus\'s own scrape configuration: up with the right password, down with 401 with a wrong one', async () => {
    const seen = await eventually('monsync up and monsync-wrong-password down', (t) => job(t, 'monsync')?.health === 'up' && job(t, 'monsync-wrong-password')?.health === 'down');
    expect(job(seen, 'monsync')!.lastError).toBe('');
    expect(job(seen, 'monsync-wrong-password')!.lastError).toMatch(/401/);
    const res = await request(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent('monsync_up{job="monsync"}')}`);
    const body = (await res.body.json()) as { data: { result: { value: [number, string] }[] } };
    expect(body.data.result.map((r) => r.value[1])).toEqual(['1']);
  });

  it('keeps running on SIGHUP, says what it read again, and is still scraped', async () => {
    exporter.child.kill('SIGHUP');
    const until = Date.now() + 10_000;
    while (!/SIGHUP: read the web configuration, the configuration again/.test(exporter.output().stderr)) {
      if (Date.now() > until) throw new Error(`no SIGHUP line:\n${exporter.output().stderr}`);
      await sleep(50);
    }
    await sleep(2_000);
    expect(exporter.child.exitCode).toBeNull();
    const since = Date.now() / 1000;
    await eventually('a scrape after SIGHUP', (t) => {
      const m = job(t, 'monsync') as (Target & { lastScrape?: string }) | undefined;
      return m?.health === 'up' && m.lastScrape !== undefined && Date.parse(m.lastScrape) / 1000 > since;
    });
  });

  it('ends on SIGTERM, exit 0, with no password or hash in its output', async () => {
    exporter.child.kill('SIGTERM');
    const result = await exporter.done;
    expect(result.code).toBe(0);
    expectCleanOutput(result, [PASSWORD, DEFAULT_CREDENTIALS.v1.password]);
    expect(result.stderr).not.toMatch(/\$2[aby]\$/);
  });
});
