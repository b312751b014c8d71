/**
 * The HTTP trace: what was sent and what came back, for a first contact with a real account and for
 * bug reports. `MONSYNC_LOG=debug` (or `--log-level debug`) writes one line per attempt of every
 * request: method, path and query, status, duration, attempt number, bytes each way and what the
 * client decided (done, retry in N ms, gave up, ...). `MONSYNC_LOG=trace` adds the response headers
 * and both bodies, truncated to MAX_BODY_CHARS. `MONSYNC_LOG_FILE=path` appends the lines to that file
 * instead of stderr (and alone means debug).
 *
 * Secrets never reach a line, at any level: the Authorization header is never written (only its
 * scheme), values under keys that name a secret (password, secret, token, authorization, ...) are
 * masked in JSON and form bodies, and every line goes through redact() (registered credentials and
 * tokens, Bearer values, credentials in URLs) last.
 *
 * The transport (transport.ts) calls `HttpLog.exchange` once per attempt, after judging the answer,
 * and only when a log is configured: without one nothing here runs.
 */
import { openSync, writeSync } from 'node:fs';
import { redact } from '../util/redact.js';
import { escapeControl } from '../util/safe-text.js';

export type LogLevel = 'off' | 'debug' | 'trace';
export const LOG_LEVELS: readonly LogLevel[] = ['off', 'debug', 'trace'];

/** Characters of a body shown at trace level. */
export const MAX_BODY_CHARS = 4096;
/** Characters of a body masked before it is cut: a secret value is never split by the cut. */
const MASK_WINDOW_CHARS = 65_536;

/** One attempt of one request, as the transport saw it. */
export interface Exchange {
  method: string;
  /** Path and query, without the base URL. */
  path: string;
  /** HTTP status, or null when no answer came. */
  status: number | null;
  /** Why no answer came (`connection refused (ECONNREFUSED)`), when none did. */
  failure?: string;
  ms: number;
  /** 1 for the first attempt of a call, 2 for its first retry, ... */
  attempt: number;
  sentBytes: number;
  receivedBytes: number;
  /** What the client does next: `done`, `retry 1 of 4 in 212 ms`, `not retried`, ... */
  outcome: string;
  /** `Basic`, `Bearer`: the scheme of the Authorization header, never its value. */
  authScheme?: string;
  requestBody?: string;
  responseBody?: string;
  responseHeaders?: Record<string, string | string[] | undefined>;
}

export interface HttpLog {
  level: Exclude<LogLevel, 'off'>;
  exchange(e: Exchange): void;
}

const SECRET_KEY = /pass(?:word|wd)?|secret|token|authori[sz]ation|credential|api[-_]?key|cookie/i;

/** JSON `"key": "value"` pairs whose key names a secret; the value masked whatever its type. */
const JSON_SECRET_PAIR = /("([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)/g;

function maskJson(text: string): string {
  return text.replace(JSON_SECRET_PAIR, (whole, head: string, key: string) => (SECRET_KEY.test(key) ? `${head}"***"` : whole));
}

function maskForm(text: string): string {
  return text
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let key = pair.slice(0, eq);
      try {
        key = decodeURIComponent(key.replace(/\+/g, ' '));
      } catch {
        // A key that does not decode is shown as sent.
      }
      return SECRET_KEY.test(key) ? `${pair.slice(0, eq)}=***` : pair;
    })
    .join('&');
}

/** A body as it may be shown: secrets masked, then cut to MAX_BODY_CHARS with what was left out said. */
export function showBody(text: string): string {
  const window = text.length > MASK_WINDOW_CHARS ? text.slice(0, MASK_WINDOW_CHARS) : text;
  const trimmed = window.trimStart();
  const looksJson = trimmed.startsWith('{') || trimmed.startsWith('[');
  let masked = looksJson ? maskJson(window) : /^[^\s=&]+=[^\s&]*(&[^\s=&]+=[^\s&]*)*$/.test(window) ? maskForm(window) : window;
  masked = redact(masked);
  if (masked.length <= MAX_BODY_CHARS && text.length <= MASK_WINDOW_CHARS) return masked;
  return `${masked.slice(0, MAX_BODY_CHARS)}... (cut; ${text.length} characters in all)`;
}

/**
 * Escapes line breaks and control characters, so one exchange's line stays one line (and, as all
 * output, cannot act on the terminal it is read on: util/safe-text.ts).
 */
function oneLine(text: string): string {
  return escapeControl(text.replace(/\r/g, '\\r')).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

const SHOWN_HEADERS_MASKED = new Set(['set-cookie', 'authorization', 'proxy-authorization', 'cookie']);

function headerLines(headers: Record<string, string | string[] | undefined>): string[] {
  return Object.keys(headers)
    .sort()
    .flatMap((name) => {
      const v = headers[name];
      if (v === undefined) return [];
      const value = SHOWN_HEADERS_MASKED.has(name.toLowerCase()) ? '***' : Array.isArray(v) ? v.join(', ') : v;
      return [`    < ${name}: ${oneLine(redact(value))}`];
    });
}

/**
 * The text written for one exchange: a first line for `debug`, and for `trace` the header and body
 * lines under it. `at` is the local time the answer (or failure) came.
 */
export function formatExchange(e: Exchange, level: Exclude<LogLevel, 'off'>, at: Date): string {
  const answer = e.status === null ? `no answer (${e.failure ?? 'unknown failure'})` : String(e.status);
  const first =
    `monsync http ${at.toISOString()} ${e.method} ${e.path} -> ${answer} in ${e.ms} ms, ` +
    `attempt ${e.attempt}, ${e.sentBytes} B sent, ${e.receivedBytes} B received: ${e.outcome}`;
  const lines = [oneLine(redact(first))];
  if (level === 'trace') {
    if (e.authScheme) lines.push(`    > authorization: ${e.authScheme} ***`);
    if (e.requestBody !== undefined && e.requestBody !== '') lines.push(`    > ${oneLine(showBody(e.requestBody))}`);
    if (e.responseHeaders) lines.push(...headerLines(e.responseHeaders));
    if (e.responseBody !== undefined && e.responseBody !== '') lines.push(`    < ${oneLine(showBody(e.responseBody))}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface LogSettings {
  level: LogLevel;
  /** Append to this file instead of writing to stderr. */
  file?: string;
}

/** The level named by MONSYNC_LOG (or --log-level), or an error message naming the choices. */
export function parseLogLevel(raw: string | undefined, name = 'MONSYNC_LOG'): LogLevel | { error: string } {
  const v = raw?.trim().toLowerCase();
  if (v === undefined || v === '' || v === 'off' || v === 'none' || v === '0') return 'off';
  if (v === 'debug' || v === 'trace') return v;
  return { error: `${name} must be debug, trace or off, got ${JSON.stringify(raw)}` };
}

/**
 * A log writing each exchange with `write` (stderr, or a file). Writing is synchronous: a process
 * that is killed keeps every line written before, and lines of concurrent requests never interleave.
 * A failing write is dropped: the trace must never change the outcome of a call.
 */
export function createHttpLog(level: Exclude<LogLevel, 'off'>, write: (text: string) => void, now: () => Date = () => new Date()): HttpLog {
  return {
    level,
    exchange(e) {
      try {
        write(formatExchange(e, level, now()));
      } catch {
        // See above: an observer.
      }
    },
  };
}

/** Opens the sink of a LogSettings: the file (appended to, created if missing) or stderr. Throws on an unusable file. */
export function openHttpLog(settings: LogSettings): HttpLog | undefined {
  if (settings.level === 'off') return undefined;
  if (settings.file === undefined) return createHttpLog(settings.level, (s) => process.stderr.write(s));
  const fd = openSync(settings.file, 'a');
  return createHttpLog(settings.level, (s) => {
    writeSync(fd, s);
  });
}

/**
 * The log MONSYNC_LOG and MONSYNC_LOG_FILE ask for, or undefined for none; a message naming the
 * variable when a value is unusable. MONSYNC_LOG_FILE alone means debug.
 */
export function httpLogFromEnv(env: Record<string, string | undefined>): HttpLog | undefined | { error: string } {
  const file = env['MONSYNC_LOG_FILE']?.trim() || undefined;
  const parsed = parseLogLevel(env['MONSYNC_LOG']);
  if (typeof parsed === 'object') return parsed;
  const level = parsed === 'off' && file !== undefined && (env['MONSYNC_LOG'] ?? '').trim() === '' ? 'debug' : parsed;
  try {
    return openHttpLog({ level, ...(file !== undefined && { file }) });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { error: `MONSYNC_LOG_FILE: cannot append to ${file}${typeof code === 'string' ? ` (${code})` : ''}` };
  }
}
