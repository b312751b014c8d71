/**
 * Headless Chromium for the tests that look at a page as a person would (test/docs-ui/), driven
 * through the DevTools protocol over a pipe (`--remote-debugging-pipe`: no port, no WebSocket).
 *
 * Contract:
 * - `openPage(url)` starts a browser with a profile of its own (removed on `close()`), opens one
 *   page target, and records the requests of that page only: `Network.requestWillBeSent` events of
 *   the page's own DevTools session, that is its frames and their subresources. What the browser
 *   does on its own (component updater, safe browsing lists, metrics, variations...) belongs to
 *   no page and is never counted, so "the page makes no request" means the page under test.
 * - The browser's own traffic is turned off as well (BACKGROUND_OFF below, each flag said why) and
 *   every request that is not to loopback goes to a proxy port where nothing listens: nothing
 *   leaves the machine even if a flag stops working in a later Chromium.
 * - Waits end on an event (load, a condition in the page), each bounded by a timeout wide enough
 *   for a machine whose two cores are busy; a bound reached is an error naming what was awaited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { closedPort } from './ports.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

/**
 * Chromium's own network traffic, off. Each of these was seen, or is documented, to reach out
 * from a browser that no page asked for:
 * - `--disable-background-networking`: variations seed, safe-browsing list updates, translate
 *   lists, the network-time service;
 * - `--disable-component-update`: the component updater (POST update.googleapis.com/service/update2,
 *   issue 34's stray request);
 * - `--disable-sync`, `--disable-default-apps`, `--disable-extensions`,
 *   `--disable-component-extensions-with-background-pages`: sync, and the apps and extensions that
 *   would fetch their own updates;
 * - `--disable-client-side-phishing-detection`, `--safebrowsing-disable-auto-update`: safe browsing's
 *   model and list downloads;
 * - `--metrics-recording-only`, `--disable-breakpad`, `--disable-domain-reliability`, `--no-pings`:
 *   metrics uploads, crash reports, network error reports, hyperlink auditing pings;
 * - `--disable-features=...`: the time, hints, translate, media-router and interest-group services
 *   that are features rather than switches;
 * - `--no-first-run`, `--disable-search-engine-choice-screen`: first-run pages, which load remote content.
 */
export const BACKGROUND_OFF = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-component-extensions-with-background-pages',
  '--disable-client-side-phishing-detection',
  '--safebrowsing-disable-auto-update',
  '--metrics-recording-only',
  '--disable-breakpad',
  '--disable-domain-reliability',
  '--no-pings',
  '--disable-features=NetworkTimeServiceQuerying,OptimizationHints,Translate,MediaRouter,InterestFeedContentSuggestions,PrivacySandboxSettings4',
  '--no-first-run',
  '--disable-search-engine-choice-screen',
];

/** Long enough for a browser start and a page load with both cores of the machine busy (measured: 2-6 s). */
const DEFAULT_TIMEOUT_MS = 60_000;

interface Message {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export interface Page {
  /** The page's requests, `METHOD url`, but the navigation to `url` itself and `data:`/`blob:` URLs (read from memory). */
  requests(): string[];
  /** Resolves once `expression`, evaluated in the page, is truthy. */
  waitFor(expression: string, what: string): Promise<void>;
  /** The page's DOM as HTML, as `--dump-dom` printed it. */
  dom(): Promise<string>;
  /** A PNG of the viewport at `width` x `height` CSS pixels, scroll bars hidden. */
  screenshot(width: number, height: number): Promise<Buffer>;
  /** The page printed to PDF, paper size from its CSS (`@page`). */
  pdf(): Promise<Buffer>;
  close(): Promise<void>;
}

/** Opens `url` in a fresh headless Chromium and waits for its load event. */
export async function openPage(url: string, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}): Promise<Page> {
  const profile = mkdtempSync(join(tmpdir(), 'monsync-chromium-'));
  const nowhere = await closedPort();
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      ...BACKGROUND_OFF,
      // Loopback goes direct (Chromium's default bypass); anything else to a port that refuses.
      `--proxy-server=http://127.0.0.1:${nowhere}`,
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const cdp = new Cdp(child, () => stderr);
  const closeBrowser = async () => {
    await cdp.shutdown();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const { targetId } = (await cdp.send('Target.createTarget', { url: 'about:blank' }, undefined, timeoutMs)) as { targetId: string };
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: true }, undefined, timeoutMs)) as { sessionId: string };
    const requests: string[] = [];
    cdp.on((m) => {
      if (m.method === 'Network.requestWillBeSent' && m.sessionId === sessionId) {
        const req = (m.params as { request: { method: string; url: string } }).request;
        if (!/^(data|blob):/.test(req.url)) requests.push(`${req.method} ${req.url}`);
      }
    });
    const send = (method: string, params: Record<string, unknown> = {}) => cdp.send(method, params, sessionId, timeoutMs);
    await send('Network.enable');
    await send('Page.enable');
    const loaded = cdp.event('Page.loadEventFired', sessionId, timeoutMs, `the load event of ${url}`);
    const nav = (await send('Page.navigate', { url })) as { errorText?: string };
    if (nav.errorText) throw new Error(`chromium could not open ${url}: ${nav.errorText}`);
    await loaded;

    return {
      requests: () => {
        const navigation = requests.indexOf(`GET ${url}`);
        return requests.filter((_, i) => i !== navigation);
      },
      async waitFor(expression, what) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const { result } = (await send('Runtime.evaluate', { expression: `Boolean(${expression})`, returnByValue: true })) as { result: { value: boolean } };
          if (result.value) return;
          if (Date.now() > deadline) throw new Error(`chromium: ${what} did not happen within ${timeoutMs} ms`);
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      async dom() {
        const { result } = (await send('Runtime.evaluate', {
          expression: `(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n' : '') + document.documentElement.outerHTML`,
          returnByValue: true,
        })) as { result: { value: string } };
        return result.value;
      },
      async screenshot(width, height) {
        await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
        await send('Emulation.setScrollbarsHidden', { hidden: true });
        const { data } = (await send('Page.captureScreenshot', { format: 'png' })) as { data: string };
        return Buffer.from(data, 'base64');
      },
      async pdf() {
        const { data } = (await send('Page.printToPDF', { preferCSSPageSize: true, displayHeaderFooter: false, printBackground: true })) as { data: string };
        return Buffer.from(data, 'base64');
      },
      close: closeBrowser,
    };
  } catch (err) {
    await closeBrowser();
    throw err;
  }
}

/** The DevTools protocol over Chromium's pipe: fd 3 in, fd 4 out, each message JSON ending in a NUL. */
class Cdp {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  private listeners: ((m: Message) => void)[] = [];
  private readonly input: Writable;
  private exited: Promise<void>;

  constructor(
    private readonly child: ChildProcess,
    private readonly stderr: () => string,
  ) {
    this.input = child.stdio[3] as Writable;
    const output = child.stdio[4] as Readable;
    let buffered = '';
    output.on('data', (d: Buffer) => {
      buffered += d.toString('utf8');
      let end: number;
      while ((end = buffered.indexOf('\0')) >= 0) {
        const m = JSON.parse(buffered.slice(0, end)) as Message;
        buffered = buffered.slice(end + 1);
        this.dispatch(m);
      }
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    void this.exited.then(() => {
      for (const p of this.pending.values()) p.reject(new Error(`chromium exited; stderr:\n${this.stderr()}`));
      this.pending.clear();
    });
    child.on('error', (err) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
  }

  private dispatch(m: Message): void {
    if (m.id !== undefined) {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) p?.reject(new Error(`chromium: ${m.error.message}`));
      else p?.resolve(m.result ?? {});
      return;
    }
    for (const l of this.listeners) l(m);
  }

  on(listener: (m: Message) => void): () => void {
    this.listeners.push(listener);
    return () => (this.listeners = this.listeners.filter((l) => l !== listener));
  }

  send(method: string, params: Record<string, unknown>, sessionId: string | undefined, timeoutMs: number): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return this.bounded(
      new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) })}\0`);
      }),
      timeoutMs,
      method,
    );
  }

  event(method: string, sessionId: string, timeoutMs: number, what: string): Promise<void> {
    let off = () => {};
    return this.bounded(
      new Promise<void>((resolve) => {
        off = this.on((m) => {
          if (m.method === method && m.sessionId === sessionId) resolve();
        });
      }),
      timeoutMs,
      what,
    ).finally(() => off());
  }

  private bounded<T>(p: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`chromium: no ${what} within ${timeoutMs} ms; stderr:\n${this.stderr()}`)), timeoutMs);
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  }

  /** Asks the browser to close, and kills it if it has not within a few seconds. */
  async shutdown(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.input.write(`${JSON.stringify({ id: this.nextId++, method: 'Browser.close', params: {} })}\0`);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
