#!/usr/bin/env node
/**
 * `npm run bench:exporter`: `monsync exporter` on the large account (issue 37).
 *
 * The emulator runs as its own process (`monsync emulator --port 0 --seed empty`), seeded with the
 * bench account of `npm run bench` (test/bench/account.mjs: `--monitors` managed SMTP monitors with
 * two alerts each, 500 groups, 500 unmanaged SMTP and 100 monitors of other types) and its clock
 * moved 20 minutes on, so every monitor has tests. The exporter runs as a child process with the
 * matching configuration (so its reads include the drift: a whole plan) and `--interval`; measured:
 *   - the first read and a later one: wall time (`monsync_read_duration_seconds`), the requests it
 *     sent by endpoint (the emulator's request log), and the exporter's resident memory after it
 *     (VmRSS from /proc);
 *   - `/metrics` scraped `--scrapes` times in the text format and in OpenMetrics: median and worst
 *     milliseconds, size of the answer; and that the scrapes sent the service nothing;
 *   - SIGTERM to exit.
 *
 *   npm run bench:exporter                        # 10,000 monitors, --interval 20s, 20 scrapes
 *   npm run bench:exporter -- --monitors 1000 --scrapes 50
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { control, liveObjects, seedAccount, writeConfig } from './account.mjs';
import { startEmulatorProcess } from './emulator.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'monsync.js');
const CREDS = { MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' };

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '10000' },
    interval: { type: 'string', default: '20' },
    scrapes: { type: 'string', default: '20' },
  },
});
const N = Number(args.monitors);
const INTERVAL = Number(args.interval);
const SCRAPES = Number(args.scrapes);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function get(url, headers = {}) {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - started, type: res.headers.get('content-type') };
}

function metric(text, name) {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** The requests of the log by endpoint: `GET /v1/Status/Filter/` and so on, ids and queries folded. */
async function requestsByEndpoint(url) {
  const { requests } = await control(url, 'GET', 'requests');
  const out = {};
  for (const r of requests) {
    const key = `${r.method} ${r.path.replace(/\/\d+\//, '/{id}/')}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return { total: requests.length, byEndpoint: out };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'monsync-bench-exporter-'));
  const emu = await startEmulatorProcess(BIN, ROOT);
  let exporter;
  try {
    const objs = liveObjects({ monitors: N });
    await seedAccount(emu.url, objs);
    writeConfig(join(dir, 'cfg'), 'base', { monitors: N });
    await control(emu.url, 'POST', 'clock', { advance_seconds: 20 * 60 });
    await control(emu.url, 'DELETE', 'requests');

    const started = performance.now();
    exporter = spawn(process.execPath, [BIN, 'exporter', join(dir, 'cfg'), '--listen', '127.0.0.1:0', '--interval', `${INTERVAL}s`], {
      cwd: ROOT,
      env: { ...process.env, ...CREDS, MONSYNC_URL: emu.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let log = '';
    exporter.stdout.on('data', (d) => (out += d));
    exporter.stderr.on('data', (d) => (log += d));
    while (!/listening on (\S+)/.test(out)) await sleep(20);
    const url = /listening on (\S+)/.exec(out)[1];
    while ((await get(`${url}/-/ready`)).status !== 200) await sleep(100);
    const readyMs = performance.now() - started;
    let scrape = await get(`${url}/metrics`);
    const first = { readSeconds: metric(scrape.body, 'monsync_read_duration_seconds'), toReadyMs: Math.round(readyMs), rssMb: rssMb(exporter.pid), ...(await requestsByEndpoint(emu.url)) };
    await control(emu.url, 'DELETE', 'requests');
    const firstAt = metric(scrape.body, 'monsync_last_read_success_timestamp_seconds');

    // Scrapes between two reads: none of them may reach the service.
    const text = [];
    const om = [];
    let textBytes = 0;
    let omBytes = 0;
    for (let i = 0; i < SCRAPES; i++) {
      const t = await get(`${url}/metrics`);
      text.push(t.ms);
      textBytes = Buffer.byteLength(t.body);
      const o = await get(`${url}/metrics`, { accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' });
      om.push(o.ms);
      omBytes = Buffer.byteLength(o.body);
      if (!o.type.startsWith('application/openmetrics-text')) throw new Error(`OpenMetrics not served: ${o.type}`);
    }
    const duringScrapes = (await requestsByEndpoint(emu.url)).total;
    const series = scrape.body.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;

    // The next read (two windows of the filter, counters settled).
    do {
      await sleep(200);
      scrape = await get(`${url}/metrics`);
    } while (metric(scrape.body, 'monsync_last_read_success_timestamp_seconds') === firstAt);
    const later = { readSeconds: metric(scrape.body, 'monsync_read_duration_seconds'), rssMb: rssMb(exporter.pid), ...(await requestsByEndpoint(emu.url)) };

    const stopStarted = performance.now();
    const exited = new Promise((r) => exporter.once('exit', (code) => r(code)));
    exporter.kill('SIGTERM');
    const code = await exited;
    const stopMs = Math.round(performance.now() - stopStarted);

    const result = {
      monitors: objs.monitors.length,
      interval: INTERVAL,
      first,
      later,
      scrapes: SCRAPES,
      requestsDuringScrapes: duringScrapes,
      series,
      text: { medianMs: +median(text).toFixed(1), maxMs: +Math.max(...text).toFixed(1), bytes: textBytes },
      openMetrics: { medianMs: +median(om).toFixed(1), maxMs: +Math.max(...om).toFixed(1), bytes: omBytes },
      sigterm: { exitCode: code, ms: stopMs },
      log: log.trim().split('\n'),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    if (exporter && exporter.exitCode === null) exporter.kill('SIGKILL');
    emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
