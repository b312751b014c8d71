/**
 * `monsync exporter --all-accounts` re-reads each declared account's configuration at every read, as
 * it does without accounts (docs/exporter.md; issue 44: the accounts shared a parse cache that never
 * looked at a file again, so `monsync_drift_changes` and `monsync_configuration_valid` kept what the
 * files said when the exporter started). After each edit, the next read shows what
 * `plan --account NAME --json` says.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, PASSWORD, runCli, startCli, USERNAME } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { Workspace } from './support.js';

const NAMES = ['alpha', 'beta'] as const;
type Name = (typeof NAMES)[number];
const emus = {} as Record<Name, TestEmulator>;
let ws: Workspace;
let exporter: ReturnType<typeof startCli> | undefined;
let metricsUrl: string;

function env(): Record<string, string | undefined> {
  const e: Record<string, string | undefined> = { MONSYNC_URL: undefined, MONSYNC_USERNAME: undefined, MONSYNC_PASSWORD: undefined };
  for (const n of NAMES) Object.assign(e, { [`MONSYNC_${n.toUpperCase()}_URL`]: emus[n].url, [`MONSYNC_${n.toUpperCase()}_USERNAME`]: USERNAME, [`MONSYNC_${n.toUpperCase()}_PASSWORD`]: PASSWORD });
  return e;
}

const declaration = (names: readonly Name[]) => `version: 1
settings:
  owner: e2e
  accounts:
${names.map((n) => `    ${n}:\n      paths: [common/, ${n}/]\n      vars: { REGION: ${n} }\n`).join('')}defaults:
  monitor: { time_zone: Europe/London, timer: 5, test_account: probe@example.com }
`;
const monitor = (label: string) => `  - label: ${label}\n    ip_address: ${label}.example.com\n`;
const file = (...labels: string[]) => `version: 1\nmonitors:\n${labels.map(monitor).join('')}`;

interface Seen {
  valid: number | undefined;
  drift: { add?: number; change?: number; destroy?: number };
}

/** What `plan --account NAME --json` says: its counts, or that the configuration (or the account) has a problem. */
async function planSays(name: Name): Promise<Seen> {
  const r = await runCli(['plan', '--account', name, '--json'], { url: 'http://127.0.0.1:9', cwd: ws.dir, env: env() });
  let summary: { create: number; update: number; delete: number } | undefined;
  try {
    summary = (JSON.parse(r.stdout) as { summary?: typeof summary }).summary;
  } catch {
    summary = undefined;
  }
  if (summary === undefined) return { valid: 0, drift: {} };
  return { valid: 1, drift: { add: summary.create, change: summary.update, destroy: summary.delete } };
}

async function scrape(): Promise<string> {
  const res = await fetch(`${metricsUrl}/metrics`);
  return res.text();
}

function sample(text: string, metric: string, labels: string): number | undefined {
  const escaped = labels.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^${metric}\\{${escaped}\\} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

function exporterSays(text: string, name: Name): Seen {
  const drift: Seen['drift'] = {};
  for (const action of ['add', 'change', 'destroy'] as const) {
    const v = sample(text, 'monsync_drift_changes', `action="${action}",account="${name}"`);
    if (v !== undefined) drift[action] = v;
  }
  return { valid: sample(text, 'monsync_configuration_valid', `account="${name}"`), drift };
}

/** Each account's last successful read on its service's clock. */
async function lastReads(): Promise<Record<Name, number>> {
  const text = await scrape();
  const out = {} as Record<Name, number>;
  for (const n of NAMES) out[n] = sample(text, 'monsync_last_read_success_timestamp_seconds', `account="${n}"`) ?? 0;
  return out;
}

/**
 * Waits for a read of every account that started after now: the services' clocks are moved on, a
 * read stamped after that is awaited, the clocks moved again, and the read after it (which began once
 * the first had ended) awaited too.
 */
async function nextReads(): Promise<void> {
  for (let round = 0; round < 2; round++) {
    const marks = {} as Record<Name, number>;
    for (const n of NAMES) marks[n] = (await emus[n].control.advance(60)).now;
    const until = Date.now() + 60_000;
    for (;;) {
      const seen = await lastReads();
      if (NAMES.every((n) => seen[n] >= marks[n])) break;
      if (Date.now() > until) throw new Error(`no read after the clocks moved: ${JSON.stringify(seen)} < ${JSON.stringify(marks)}\n${exporter!.output().stderr}`);
      await sleep(100);
    }
  }
}

async function expectExporterAsPlan(names: readonly Name[] = NAMES): Promise<void> {
  await nextReads();
  const text = await scrape();
  for (const n of names) expect(exporterSays(text, n), `account ${n}:\n${exporter!.output().stderr}`).toEqual(await planSays(n));
}

beforeAll(async () => {
  await buildCli();
  for (const n of NAMES) emus[n] = await startTestEmulator({ seed: 'default' });
  ws = await Workspace.create();
  await ws.write('monsync.yaml', declaration(NAMES));
  await ws.write('common/mx.yaml', file('mx-common-${REGION}'));
  for (const n of NAMES) await ws.write(`${n}/own.yaml`, file(`mx-${n}-1`));
  exporter = startCli(['exporter', '--all-accounts', '--listen', '127.0.0.1:0', '--interval', '1s'], { url: 'http://127.0.0.1:9', cwd: ws.dir, env: env(), timeoutMs: 600_000 });
  const started = Date.now();
  while (!/listening on /.test(exporter.output().stdout)) {
    if (Date.now() - started > 30_000 || exporter.child.exitCode !== null) throw new Error(`the exporter did not start:\n${exporter.output().stderr}`);
    await sleep(50);
  }
  metricsUrl = /listening on (\S+)/.exec(exporter.output().stdout)![1]!;
}, 300_000);

afterAll(async () => {
  if (exporter && exporter.child.exitCode === null) exporter.child.kill('SIGKILL');
  for (const n of NAMES) await emus[n]?.close();
  await ws?.remove();
}, 60_000);

describe('monsync exporter --all-accounts', () => {
  it("shows an account's added monitor, a broken shared file, its mending and a removed account at the next read, as plan --account says", async () => {
    await expectExporterAsPlan();
    expect((await planSays('alpha')).drift.add).toBe(2);

    await ws.write('alpha/own.yaml', file('mx-alpha-1', 'mx-alpha-2'));
    await expectExporterAsPlan();
    expect((await planSays('alpha')).drift.add).toBe(3);

    await ws.write('common/mx.yaml', 'version: 1\nmonitors:\n  - label: [not, a, label]\n');
    await expectExporterAsPlan();
    expect((await planSays('beta')).valid).toBe(0);

    await ws.write('common/mx.yaml', file('mx-common-${REGION}', 'mx-common-2-${REGION}'));
    await expectExporterAsPlan();
    expect((await planSays('beta')).drift.add).toBe(3);

    // beta is no longer declared: plan --account beta refuses, and the exporter says its configuration is not valid.
    await ws.write('monsync.yaml', declaration(['alpha']));
    await expectExporterAsPlan();
    expect((await planSays('beta')).valid).toBe(0);
  }, 300_000);
});
