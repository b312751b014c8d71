import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { runReadLoop, waitAfter } from '../../src/ops/exporter/loop.js';
import { ExporterMetrics, wantsOpenMetrics, type AccountSample, type MonitorSample } from '../../src/ops/exporter/metrics.js';
import { isLoopback, startExporterServer, type ExporterServer } from '../../src/ops/exporter/server.js';

function mon(id: string, label: string, extra: Partial<MonitorSample> = {}): MonitorSample {
  return {
    id,
    label,
    type: 'smtp',
    up: 1,
    roundTripSeconds: 12,
    lastTestSeconds: 1_800_000_000,
    alertActive: false,
    paused: false,
    pausedSecondsLeft: 0,
    inMaintenance: null,
    newTests: 1,
    newFailedTests: 0,
    ...extra,
  };
}

function sample(monitors: MonitorSample[], extra: Partial<AccountSample> = {}): AccountSample {
  return { monitors, atSeconds: 1_800_000_060, readSeconds: 0.25, ...extra };
}

async function text(m: ExporterMetrics): Promise<string> {
  return (await m.render(false)).body;
}

describe('the metrics of one read', () => {
  it('escape a hostile monitor label by the exposition rules: backslash, quote and new line', async () => {
    const m = new ExporterMetrics({ accounts: false, configuration: false });
    m.readSucceeded(sample([mon('7', 'mx "eu"\\1\nnext')]));
    expect(await text(m)).toContain('monsync_monitor_up{monitor="mx \\"eu\\"\\\\1\\nnext",id="7",type="smtp"} 1');
  });

  it('end the series of a monitor gone from the account, and of its old label when renamed', async () => {
    const m = new ExporterMetrics({ accounts: false, configuration: false });
    m.readSucceeded(sample([mon('1', 'mx-a'), mon('2', 'mx-b')]));
    m.readSucceeded(sample([mon('1', 'mx-a2')]));
    const out = await text(m);
    expect(out).toContain('monsync_monitor_up{monitor="mx-a2",id="1",type="smtp"} 1');
    expect(out).not.toContain('mx-b');
    expect(out).not.toContain('monitor="mx-a"');
  });

  it('keep the last values after a failed read, with monsync_up 0', async () => {
    const m = new ExporterMetrics({ accounts: false, configuration: false });
    m.readSucceeded(sample([mon('1', 'mx-a', { up: 0 })]));
    m.readFailed();
    const out = await text(m);
    expect(out).toContain('monsync_up 0');
    expect(out).toContain('monsync_monitor_up{monitor="mx-a",id="1",type="smtp"} 0');
    expect(out).toContain('monsync_last_read_success_timestamp_seconds 1800000060');
  });

  it('count tests and requests by code, 429s included, and carry the account label with accounts', async () => {
    const m = new ExporterMetrics({ accounts: true, configuration: true });
    m.request(200, 'prod');
    m.request(429, 'prod');
    m.request(null, 'prod');
    m.readSucceeded(sample([mon('1', 'mx-a', { newTests: 2, newFailedTests: 1 })], { drift: { add: 1, change: 0, destroy: 2 } }), 'prod');
    const out = await text(m);
    expect(out).toContain('monsync_service_requests_total{code="429",account="prod"} 1');
    expect(out).toContain('monsync_service_requests_total{code="none",account="prod"} 1');
    expect(out).toContain('monsync_monitor_failed_tests_total{monitor="mx-a",id="1",type="smtp",account="prod"} 1');
    expect(out).toContain('monsync_drift_changes{action="destroy",account="prod"} 2');
    expect(out).toContain('monsync_configuration_valid{account="prod"} 1');
  });

  it('drop the drift while the configuration has problems, rather than keep a stale count', async () => {
    const m = new ExporterMetrics({ accounts: false, configuration: true });
    m.readSucceeded(sample([], { drift: { add: 1, change: 0, destroy: 0 } }));
    m.readSucceeded(sample([], { drift: null }));
    const out = await text(m);
    expect(out).toContain('monsync_configuration_valid 0');
    expect(out).not.toMatch(/^monsync_drift_changes\{/m);
  });

  it('render OpenMetrics when asked, and the text format keeps counters named _total afterwards', async () => {
    const m = new ExporterMetrics({ accounts: false, configuration: false });
    m.readSucceeded(sample([mon('1', 'mx-a')]));
    const om = await m.render(true);
    expect(om.contentType).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    expect(om.body).toMatch(/# TYPE monsync_monitor_tests counter\n/);
    expect(om.body.endsWith('# EOF\n')).toBe(true);
    const plain = await m.render(false);
    expect(plain.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(plain.body).toMatch(/# TYPE monsync_monitor_tests_total counter\n/);
  });

  it("follow the scraper's Accept header: Prometheus asks for OpenMetrics first", () => {
    expect(wantsOpenMetrics('application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1')).toBe(true);
    expect(wantsOpenMetrics('text/plain;version=0.0.4')).toBe(false);
    expect(wantsOpenMetrics('application/openmetrics-text;q=0')).toBe(false);
    expect(wantsOpenMetrics(undefined)).toBe(false);
  });
});

describe('the exporter server', () => {
  let server: ExporterServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('is ready only after the first read, and healthy from the start', async () => {
    let ready = false;
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: new ExporterMetrics({ accounts: false, configuration: false }), token: null, ready: () => ready });
    expect((await request(`${server.url}/-/healthy`)).statusCode).toBe(200);
    const before = await request(`${server.url}/-/ready`);
    await before.body.text();
    expect(before.statusCode).toBe(503);
    ready = true;
    const after = await request(`${server.url}/-/ready`);
    await after.body.text();
    expect(after.statusCode).toBe(200);
  });

  it('wants the bearer token on /metrics when one is set, and answers 401 without it', async () => {
    const metrics = new ExporterMetrics({ accounts: false, configuration: false });
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics, token: 's3cret-token', ready: () => true });
    const none = await request(`${server.url}/metrics`);
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(await none.body.text()).not.toContain('s3cret');
    const wrong = await request(`${server.url}/metrics`, { headers: { authorization: 'Bearer s3cret-tokem' } });
    await wrong.body.text();
    expect(wrong.statusCode).toBe(401);
    const right = await request(`${server.url}/metrics`, { headers: { authorization: 'Bearer s3cret-token' } });
    expect(right.statusCode).toBe(200);
    expect(await right.body.text()).toContain('# TYPE monsync_up gauge');
  });

  it('tells loopback addresses from others', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.1', 'example.org'].some(isLoopback)).toBe(false);
  });
});

describe('the read loop', () => {
  it('backs off after failures, twice the wait each time, at most ten intervals', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => waitAfter(1000, n))).toEqual([1000, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('never dies of a failed read: it logs it (redacted by the caller), keeps going, and ends on its signal', async () => {
    const metrics = new ExporterMetrics({ accounts: false, configuration: false });
    const stop = new AbortController();
    const log: string[] = [];
    const results: boolean[] = [];
    let calls = 0;
    await runReadLoop({
      intervalMs: 1,
      metrics,
      read: async () => {
        calls++;
        if (calls === 2) throw new Error('HTTP 503');
        return sample([mon('1', 'mx-a')]);
      },
      log: (l) => log.push(l),
      signal: stop.signal,
      onRead: (ok) => {
        results.push(ok);
        if (results.length === 3) stop.abort();
      },
    });
    expect(results).toEqual([true, false, true]);
    expect(log.join('\n')).toMatch(/the read failed \(1 in a row\), keeping the last values; next try in \d+ s: HTTP 503/);
    expect(log.join('\n')).toMatch(/read the account again/);
    expect(await text(metrics)).toContain('monsync_up 1');
  });
});

describe('the rendering', () => {
  it('is made once between two changes, however often scraped, and made again after a read or a request', async () => {
    const m = new ExporterMetrics({ accounts: false, configuration: false });
    m.readSucceeded(sample([mon('1', 'mx-a')]));
    const first = await m.render(false);
    expect(await m.render(false)).toBe(first);
    m.request(200);
    const second = await m.render(false);
    expect(second).not.toBe(first);
    expect(second.body).toContain('monsync_service_requests_total{code="200"} 1');
    m.readSucceeded(sample([mon('1', 'mx-a', { up: 0 })]));
    expect((await m.render(false)).body).toContain('monsync_monitor_up{monitor="mx-a",id="1",type="smtp"} 0');
  });
});

describe('the read loop and its signal', () => {
  it('ends at once when its signal aborts in the middle of a read, without waiting for the read', async () => {
    const stop = new AbortController();
    let started!: () => void;
    const reading = new Promise<void>((r) => (started = r));
    const loop = runReadLoop({
      intervalMs: 60_000,
      metrics: new ExporterMetrics({ accounts: false, configuration: false }),
      // A read that never answers (a large account, a stuck service).
      read: () => {
        started();
        return new Promise<AccountSample>(() => undefined);
      },
      log: () => undefined,
      signal: stop.signal,
    });
    await reading;
    stop.abort();
    await expect(Promise.race([loop.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still waiting'), 1_000))])).resolves.toBe('ended');
  });
});
