/**
 * Service-level objectives in the configuration (issue 46): `slo:` on defaults.monitor, monitor
 * templates, monitors and groups, inherited like a field, checked where it is written, formatted in
 * the schema's order, and never part of what a plan sends or compares.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostics, loadConfig } from '../../src/config/index.js';
import { objectiveOf } from '../../src/config/slo.js';
import { applyFlow } from '../../src/workflow/apply.js';
import { commandContext } from '../../src/workflow/context.js';
import { planFlow } from '../../src/workflow/plan.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { v1Env } from '../ops/helpers.js';
import { formatted } from '../fmt/helpers.js';

const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'slo', 'monsync.yaml');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'monsync-slo-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(files: Record<string, string>, fullPath: boolean) {
  const sub = await mkdtemp(join(dir, 'c-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(sub, name), text);
  return loadConfig(Object.keys(files), { cwd: sub, env: {}, fullPath });
}

const problems = (r: Awaited<ReturnType<typeof load>>) => ('diagnostics' in r ? formatDiagnostics(r.diagnostics, '/').split('\n').filter(Boolean) : []);

const BAD = `version: 1
defaults:
  monitor:
    timer: 5
    time_zone: UTC
    slo: { objective: 100%, window: 30d }
templates:
  monitors:
    t:
      slo: { objective: 99.5, window: 0d }
monitors:
  - label: a
    ip_address: mx.example.com
    test_account: p@example.com
    slo:
      objective: high
      window: 30d
      round_trip: -5
groups:
  - name: g
    slo: { objective: 0.999, window: 1.5d, round_trip: 0 }
`;

describe.each([false, true])('slo (full path only: %s)', (fullPath) => {
  it('gives each monitor the objective of its own slo, else its template, else defaults.monitor, and none for slo: null', async () => {
    const r = await load({ 'monsync.yaml': readFileSync(EXAMPLE, 'utf8') }, fullPath);
    if (!('state' in r)) expect.fail(problems(r).join('\n'));
    const byLabel = Object.fromEntries(r.state.monitors.map((m) => [m.label, m.slo]));
    expect(byLabel).toEqual({
      'mx-primary': { objective: 0.999, window_seconds: 30 * 86_400, round_trip_seconds: 30 },
      'mx-backup': { objective: 0.995, window_seconds: 30 * 86_400 },
      'relay-lab': undefined,
    });
    expect(r.state.groups.map((g) => [g.name, g.slo])).toEqual([['inbound', { objective: 0.995, window_seconds: 7 * 86_400 }]]);
    // Never in the spec plan compares and sends.
    for (const m of r.state.monitors) expect(Object.keys(m.spec)).not.toContain('slo');
  });

  it('refuses objectives outside (0, 100%), windows and bounds that are not positive durations, at the line and column of each value', async () => {
    expect(problems(await load({ 'bad.yaml': BAD }, fullPath))).toEqual([
      'bad.yaml:6:23: objective must be above 0% and below 100% (got "100%"): an objective of 100% allows no failed test at all',
      'bad.yaml:10:25: objective 99.5 is a ratio above 1; write "99.5%" for a percentage',
      'bad.yaml:10:39: window: "0d" is zero; give a positive duration, e.g. 90s, 30m, 2h, 1d or 1h30m (a bare number is seconds)',
      'bad.yaml:16:18: objective must be a percentage such as "99.5%" or a ratio such as 0.995 (got "high")',
      'bad.yaml:18:19: round_trip must be a positive duration such as "30d" or "30s" (got -5)',
      'bad.yaml:21:38: window: "1.5d" has a fraction; use whole units, e.g. 90m rather than 1.5h',
      'bad.yaml:21:56: round_trip must be a positive duration such as "30d" or "30s" (got 0)',
    ]);
  });

  it('refuses an slo without a window, or with a key it does not know, naming the allowed ones', async () => {
    const text = `version: 1
monitors:
  - label: a
    ip_address: mx.example.com
    test_account: p@example.com
    timer: 5
    time_zone: UTC
    slo: { objective: 99% }
  - label: b
    ip_address: mx.example.com
    test_account: p@example.com
    timer: 5
    time_zone: UTC
    slo: { objective: 99%, window: 30d, budget: 1h }
`;
    expect(problems(await load({ 'x.yaml': text }, fullPath))).toEqual([
      'x.yaml:8:10: slo is missing required key "window"',
      'x.yaml:14:41: unknown key "budget" in slo; allowed keys: objective, window, round_trip',
    ]);
  });
});

describe('objective values', () => {
  it('reads percentages and ratios alike, without binary noise', () => {
    expect(objectiveOf('99.9%')).toEqual({ ratio: 0.999 });
    expect(objectiveOf('99.95 %')).toEqual({ ratio: 0.9995 });
    expect(objectiveOf(0.995)).toEqual({ ratio: 0.995 });
    expect(objectiveOf('0.99')).toEqual({ ratio: 0.99 });
    expect(objectiveOf('0%')).toHaveProperty('problem');
    expect(objectiveOf(1)).toHaveProperty('problem');
    expect(objectiveOf(true)).toHaveProperty('problem');
  });
});

describe('fmt', () => {
  it('writes slo keys in the schema order (objective, window, round_trip) and slo after the other monitor and group fields', async () => {
    const text = `version: 1
groups:
  - slo:
      round_trip: 30s
      window: 7d
      objective: 99.9%
    name: g
monitors:
  - slo: { window: 30d, objective: 99% }
    label: a
    timer: 5
    time_zone: UTC
    ip_address: mx.example.com
    test_account: p@example.com
`;
    expect(await formatted(text)).toBe(`version: 1
monitors:
  - label: a
    ip_address: mx.example.com
    test_account: p@example.com
    timer: 5
    time_zone: UTC
    slo: { objective: 99%, window: 30d }
groups:
  - name: g
    slo:
      objective: 99.9%
      window: 7d
      round_trip: 30s
`);
  });

  it('leaves the slo example as it is', async () => {
    const text = readFileSync(EXAMPLE, 'utf8');
    expect(await formatted(text)).toBe(text);
  });
});

describe('plan', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'default' });
  });
  afterAll(async () => {
    await emu.close();
  });
  const contextFor = (paths: string[]) => commandContext(captureIo(v1Env(emu.url), { cwd: process.cwd(), now: Date.now }), paths);

  it('plans the same changes with and without the objectives, sends none of them, and has nothing to change once applied', async () => {
    const without = join(dir, 'without-slo.yaml');
    // The example with every objective taken out (flow and block forms alike).
    await writeFile(without, readFileSync(EXAMPLE, 'utf8').replace(/^ *slo:.*\n(?: {6}(?:objective|window|round_trip):.*\n)*/gm, ''));
    const withPlan = (await planFlow(contextFor([EXAMPLE]), {})).plan;
    const withoutPlan = (await planFlow(contextFor([without]), {})).plan;
    expect((await planFlow(contextFor([without]), {})).desired.monitors.some((m) => m.slo !== undefined)).toBe(false);
    const changes = (p: typeof withPlan) => JSON.stringify(p.changes).replace(/"(file|line|column)":("[^"]*"|\d+)/g, '');
    expect(withPlan.changes.length).toBeGreaterThan(0);
    expect(changes(withPlan)).toBe(changes(withoutPlan));

    await emu.control.clearRequests();
    const quiet = () => undefined;
    const hooks = { progress: quiet, planned: quiet, applying: quiet, started: quiet, finished: quiet, applied: quiet, checking: quiet, checked: quiet, checkFailed: quiet };
    await applyFlow(contextFor([EXAMPLE]), { parallelism: 4, hooks });
    const sent = (await emu.control.requests()).filter((q) => q.method !== 'GET');
    expect(sent.length).toBeGreaterThan(0);
    expect(JSON.stringify(sent.map((q) => q.body))).not.toMatch(/slo|objective|window/);
    expect((await planFlow(contextFor([EXAMPLE]), {})).plan.changes).toEqual([]);
  });
});
