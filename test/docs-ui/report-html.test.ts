/**
 * `monsync report --format html` in a real browser: headless Chromium opens the file the built CLI
 * wrote from an emulator holding a month of history; the rendered DOM has both charts and the
 * monitors' rows; no request leaves the page (every request Chromium would make goes through a
 * recording proxy on 127.0.0.1, shown to work by a page that does fetch); a screenshot is kept in
 * test-artifacts/report.png (git-ignored) and printing to PDF works.
 *
 * Needs /usr/bin/chromium, as test/docs-ui/docs.test.ts does (Debian package `chromium`; .ci/run
 * installs it). Under CI a missing browser fails this test; locally the test is skipped with the reason.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumAvailable, runChromium } from '../helpers/chromium.js';
import { buildCli, runCli, ROOT } from '../helpers/cli.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const available = chromiumAvailable;
const inCi = Boolean(process.env.CI);
const ARTIFACTS = join(ROOT, 'test-artifacts');

/** Chromium with every request the page makes, to any host (loopback too), sent to the recording proxy. */
function chromium(args: string[], proxyPort: number) {
  return runChromium(
    [
      '--disable-extensions',
      '--disable-default-apps',
      '--disable-domain-reliability',
      '--disable-client-side-phishing-detection',
      '--disable-features=NetworkTimeServiceQuerying,OptimizationHints,Translate,MediaRouter',
      `--proxy-server=http://127.0.0.1:${proxyPort}`,
      '--proxy-bypass-list=<-loopback>',
      ...args,
    ],
    { timeoutMs: 90_000, virtualTimeMs: 5000 },
  );
}

describe('the HTML report in headless Chromium', () => {
  if (!available && inCi) {
    it('needs Chromium', () => {
      expect.fail(`${CHROMIUM} not found: install the Debian package (apt-get install -y chromium; .ci/run does this before npm test) or set CHROMIUM_PATH`);
    });
    return;
  }

  let emu: TestEmulator;
  let proxy: Server;
  let proxied: string[] = [];
  let dir: string;
  let html: string;
  const proxyPort = () => (proxy.address() as AddressInfo).port;
  /** What went through the proxy, but Chromium's own calls home (time, accounts, safe browsing), which no page makes. */
  const pageRequests = () => proxied.filter((r) => !/^(GET http:\/\/|CONNECT )[\w.-]*\b(google\.com|googleapis\.com|gstatic\.com|gvt1\.com)\b/.test(r));

  beforeAll(async () => {
    if (!available) return;
    await buildCli();
    dir = mkdtempSync(join(tmpdir(), 'monsync-report-html-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      res.writeHead(404).end();
    });
    proxy.on('connect', (req, socket) => {
      proxied.push(`CONNECT ${req.url}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    emu = await startTestEmulator({ seed: 'default' });
    const { json } = await apiCall(emu, 'GET', '/v1/Config/Monitor/');
    const first = (json.monitor_list as { id: string }[])[0]!.id;
    const now = Math.floor(Date.now() / 1000);
    await emu.control.history({ days: 40, outages: [{ monitor: first, start: now - 20 * 86_400, end: now - 20 * 86_400 + 3 * 3600 }] });
    html = join(dir, 'uptime.html');
    const r = await runCli(['report', '--since', '30d', '--format', 'html', '--out', html], { url: emu.url });
    expect(r.code, r.stderr).toBe(0);
  }, 240_000);
  afterAll(async () => {
    await emu?.close();
    if (proxy) await new Promise((resolve) => proxy.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!available)(`renders both charts and every monitor, and makes no request${available ? '' : ` (skipped: ${CHROMIUM} not found)`}`, { timeout: 120_000 }, async () => {
    proxied = [];
    const { code, stdout, stderr } = await chromium(['--dump-dom', `file://${html}`], proxyPort());
    expect(code, stderr.slice(-2000)).toBe(0);
    expect(stdout).toMatch(/<svg[^>]*id="availability-chart"/);
    expect(stdout.match(/<rect class="day"/g) ?? []).toHaveLength(31);
    expect(stdout).toMatch(/<svg[^>]*id="response-chart"[\s\S]*?<polyline class="p95"[^>]*points="[\d., ]{20,}"/);
    const { json } = await apiCall(emu, 'GET', '/v1/Config/Monitor/');
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const m of json.monitor_list as { label: string }[]) expect(stdout).toContain(`<td>${esc(m.label)}</td>`);
    expect(stdout).toContain('id="outages"');
    expect(pageRequests()).toEqual([]);
  });

  it.skipIf(!available)('the proxy does see a page that fetches (the check above can fail)', { timeout: 120_000 }, async () => {
    proxied = [];
    const page = join(dir, 'fetching.html');
    writeFileSync(page, '<!doctype html><html><body><img src="http://example.invalid/pixel.png"></body></html>');
    const { code } = await chromium(['--dump-dom', `file://${page}`], proxyPort());
    expect(code).toBe(0);
    expect(pageRequests().join('\n')).toContain('example.invalid');
  });

  it.skipIf(!available)('a screenshot is kept in test-artifacts/report.png, and printing to PDF works', { timeout: 180_000 }, async () => {
    proxied = [];
    const png = join(ARTIFACTS, 'report.png');
    const pdf = join(ARTIFACTS, 'report.pdf');
    rmSync(png, { force: true });
    rmSync(pdf, { force: true });
    const shot = await chromium([`--screenshot=${png}`, '--window-size=1200,1800', '--hide-scrollbars', `file://${html}`], proxyPort());
    expect(shot.code, shot.stderr.slice(-2000)).toBe(0);
    const image = readFileSync(png);
    expect(image.subarray(1, 4).toString()).toBe('PNG');
    // Width and height from the IHDR chunk.
    expect([image.readUInt32BE(16), image.readUInt32BE(20)]).toEqual([1200, 1800]);
    const printed = await chromium([`--print-to-pdf=${pdf}`, '--no-pdf-header-footer', `file://${html}`], proxyPort());
    expect(printed.code, printed.stderr.slice(-2000)).toBe(0);
    const bytes = readFileSync(pdf);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(statSync(pdf).size).toBeGreaterThan(10_000);
    // A4: 595 x 842 points.
    // A4 (595 x 842 points), two pages or more.
    const boxes = [...bytes.toString('latin1').matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))]);
    expect(boxes.length).toBeGreaterThanOrEqual(1);
    for (const b of boxes) expect(b).toEqual([595, 842]);
    expect(pageRequests()).toEqual([]);
  });
});
