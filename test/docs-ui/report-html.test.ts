/**
 * `monsync report --format html` in a real browser: headless Chromium opens the file the built CLI
 * wrote from an emulator holding a month of history; the rendered DOM has both charts and the
 * monitors' rows; the page makes no request (the requests of the page's own DevTools session are
 * counted, never the browser's own traffic: test/helpers/chromium.ts; shown to work by a page that
 * does fetch); a screenshot is kept in test-artifacts/report.png (git-ignored) and printing to PDF works.
 *
 * Needs /usr/bin/chromium, as test/docs-ui/docs.test.ts does (Debian package `chromium`; .ci/run
 * installs it). Under CI a missing browser fails this test; locally the test is skipped with the reason.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumAvailable, openPage, type Page } from '../helpers/chromium.js';
import { buildCli, runCli, ROOT } from '../helpers/cli.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const available = chromiumAvailable;
const inCi = Boolean(process.env.CI);
const ARTIFACTS = join(ROOT, 'test-artifacts');

describe('the HTML report in headless Chromium', () => {
  if (!available && inCi) {
    it('needs Chromium', () => {
      expect.fail(`${CHROMIUM} not found: install the Debian package (apt-get install -y chromium; .ci/run does this before npm test) or set CHROMIUM_PATH`);
    });
    return;
  }

  let emu: TestEmulator;
  let dir: string;
  let html: string;
  let page: Page | undefined;

  beforeAll(async () => {
    if (!available) return;
    await buildCli();
    dir = mkdtempSync(join(tmpdir(), 'monsync-report-html-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    emu = await startTestEmulator({ seed: 'default' });
    const { json } = await apiCall(emu, 'GET', '/v1/Config/Monitor/');
    const first = (json.monitor_list as { id: string }[])[0]!.id;
    const now = Math.floor(Date.now() / 1000);
    await emu.control.history({ days: 40, outages: [{ monitor: first, start: now - 20 * 86_400, end: now - 20 * 86_400 + 3 * 3600 }] });
    html = join(dir, 'uptime.html');
    const r = await runCli(['report', '--since', '30d', '--format', 'html', '--out', html], { url: emu.url });
    expect(r.code, r.stderr).toBe(0);
  }, 240_000);
  afterEach(async () => {
    await page?.close();
    page = undefined;
  });
  afterAll(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!available)(`renders both charts and every monitor, and makes no request${available ? '' : ` (skipped: ${CHROMIUM} not found)`}`, { timeout: 120_000 }, async () => {
    page = await openPage(`file://${html}`);
    const stdout = await page.dom();
    expect(stdout).toMatch(/<svg[^>]*id="availability-chart"/);
    expect(stdout.match(/<rect class="day"/g) ?? []).toHaveLength(31);
    expect(stdout).toMatch(/<svg[^>]*id="response-chart"[\s\S]*?<polyline class="p95"[^>]*points="[\d., ]{20,}"/);
    const { json } = await apiCall(emu, 'GET', '/v1/Config/Monitor/');
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const m of json.monitor_list as { label: string }[]) expect(stdout).toContain(`<td>${esc(m.label)}</td>`);
    expect(stdout).toContain('id="outages"');
    expect(page.requests()).toEqual([]);
  });

  it.skipIf(!available)('counts the requests of a page that fetches (the check above can fail)', { timeout: 120_000 }, async () => {
    const fetching = join(dir, 'fetching.html');
    writeFileSync(fetching, '<!doctype html><html><body><img src="http://example.invalid/pixel.png"></body></html>');
    page = await openPage(`file://${fetching}`);
    expect(page.requests()).toEqual(['GET http://example.invalid/pixel.png']);
  });

  it.skipIf(!available)('a screenshot is kept in test-artifacts/report.png, and printing to PDF works', { timeout: 180_000 }, async () => {
    const png = join(ARTIFACTS, 'report.png');
    const pdf = join(ARTIFACTS, 'report.pdf');
    rmSync(png, { force: true });
    rmSync(pdf, { force: true });
    page = await openPage(`file://${html}`);
    const image = await page.screenshot(1200, 1800);
    writeFileSync(png, image);
    expect(image.subarray(1, 4).toString()).toBe('PNG');
    // Width and height from the IHDR chunk.
    expect([image.readUInt32BE(16), image.readUInt32BE(20)]).toEqual([1200, 1800]);
    const bytes = await page.pdf();
    writeFileSync(pdf, bytes);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(10_000);
    // A4 (595 x 842 points), from the report's own `@page` rule.
    const boxes = [...bytes.toString('latin1').matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))]);
    expect(boxes.length).toBeGreaterThanOrEqual(1);
    for (const b of boxes) expect(b).toEqual([595, 842]);
    expect(page.requests()).toEqual([]);
  });
});
