/**
 * `monsync report`'s runner in process against an emulator with a seeded month: each format on
 * stdout or in a file, usage errors before any request.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReport, type ReportOptions } from '../../src/cli/report.js';
import { UsageError } from '../../src/util/errors.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { v1Env } from './helpers.js';

const NOW = Date.UTC(2026, 10, 3, 9, 0, 30);
let emu: TestEmulator;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'monsync-report-'));
  emu = await startTestEmulator({ seed: 'empty' });
  await emu.control.setClock(NOW / 1000);
  for (const label of ['mx-eu-1', 'mx-us-1']) {
    await apiCall(emu, 'POST', '/v1/Config/Monitor/', { body: { type: 'smtp', label, timer: 10, time_zone: 'UTC', ip_address: 'mx', test_account: 'p@example.org' } });
  }
  await emu.control.history({ days: 40 });
}, 60_000);
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const opts = (o: Partial<ReportOptions>): ReportOptions => ({ format: 'text', parallelism: '8', ...o });
// The real clock: the service's now is that plus the offset its Date header shows (the emulator's clock is set to NOW).
const io = () => captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dir });

describe('monsync report (runner)', () => {
  it('prints last month as text on stdout, stderr quiet when it is not a terminal', async () => {
    const c = io();
    expect(await runReport(opts({ month: '2026-10' }), c)).toBe(0);
    expect(c.stdout).toMatch(/^Uptime report — 2026-10: 2026-10-01 00:00 UTC → 2026-11-01 00:00 UTC\n2 monitors/);
    expect(c.stdout).toContain('mx-eu-1');
    expect(c.stderr).toBe('');
  });

  it('prints JSON valid against schemas/report.schema.json', async () => {
    const c = io();
    await runReport(opts({ month: '2026-10', format: 'json' }), c);
    const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'));
    const validate = new Ajv2020.default({ strict: true, strictTypes: false }).compile(schema);
    const json = JSON.parse(c.stdout);
    expect(validate(json) ? [] : validate.errors).toEqual([]);
    expect(json.account.figures.tests).toBe(2 * ((31 * 86_400) / 600));
  });

  it('writes HTML to --out and says where on stderr', async () => {
    const c = io();
    await runReport(opts({ month: '2026-10', format: 'html', out: 'uptime.html' }), c);
    expect(c.stdout).toBe('');
    expect(c.stderr).toMatch(/^Wrote uptime\.html \(html, 2 monitors, availability \d+\.\d{3}%\)\.\n$/);
    expect(readFileSync(join(dir, 'uptime.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('writes JSON to --out as it prints it (in pieces), over an older longer file, and names a file it cannot write', async () => {
    const printed = io();
    await runReport(opts({ month: '2026-10', format: 'json' }), printed);
    writeFileSync(join(dir, 'uptime.json'), 'x'.repeat(3_000_000));
    const c = io();
    await runReport(opts({ month: '2026-10', format: 'json', out: 'uptime.json' }), c);
    const written = readFileSync(join(dir, 'uptime.json'), 'utf8');
    const mask = (s: string) => s.replace(/"generatedAt": \d+/, '');
    expect(mask(written)).toBe(mask(printed.stdout));
    expect(c.stderr).toMatch(/^Wrote uptime\.json \(json, 2 monitors/);
    await expect(runReport(opts({ month: '2026-10', format: 'json', out: 'no-such-dir/uptime.json' }), io())).rejects.toThrow(
      /^--out: cannot write no-such-dir\/uptime\.json: ENOENT$/,
    );
  });

  it('on a terminal, shows the progress of the reads on stderr and clears it', async () => {
    const c = { ...io(), errColor: true };
    let stderr = '';
    c.err = (s: string) => (stderr += s);
    await runReport(opts({ month: '2026-10', format: 'csv' }), c);
    expect(stderr).toContain('Reading 2 monitors');
    expect(stderr).toContain('Reading raw data: 2 of 2 monitors');
    expect(stderr.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('refuses an unknown format, a bad month and a bad parallelism before any request, exit 2', async () => {
    await emu.control.clearRequests();
    for (const o of [{ format: 'pdf' }, { month: '2026-1' }, { parallelism: '0' }, { month: '2026-10', since: '7d' }]) {
      await expect(runReport(opts(o), io())).rejects.toSatisfy((e: unknown) => e instanceof UsageError && e.exitCode === 2);
    }
    expect(await emu.control.requests()).toEqual([]);
  });
});
