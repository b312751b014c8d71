/**
 * The emulator's control API (/_emulator/, docs/emulator-reference.md) as the drill uses it. Only ever on a
 * loopback address, and never with credentials: the control API has no auth, and a drill pointed
 * by mistake at the real service must not get as far as sending anything.
 */
import { isLoopbackHost, parseBaseUrl } from '../api/url.js';
import { UserError } from '../util/errors.js';

/**
 * An entry of `GET /_emulator/outbox` as parsed here (`parseMessage`). The client's own reading of the
 * control API, as src/api reads the service's: monsync does not import the emulator, and the drill's
 * tests against a running emulator (test/ops/drill-emulator.test.ts) keep the two in agreement.
 */
export interface OutboxMessage {
  /** Unix seconds, emulator time. */
  time: number;
  alert: string;
  monitor: string;
  destination: string;
  kind: 'down' | 'up';
  subject: string;
  body: string;
  delivered: boolean;
}

/** What the drill needs of the emulator; tests may stand in for it. */
export interface EmulatorControlApi {
  /** Emulator time, unix seconds. */
  clock(): Promise<number>;
  /** Moves the clock forward; the simulation runs every minute crossed. Returns the new time. */
  advance(seconds: number): Promise<number>;
  /** Forces test failures of the monitor from now for `seconds`; 0 ends the outage. */
  outage(monitorId: string, seconds: number): Promise<void>;
  outbox(since: number): Promise<OutboxMessage[]>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

const NOT_AN_EMULATOR =
  'drill only runs against the monsync emulator (it forces an outage and moves the clock): start one with `monsync emulator` and point MONSYNC_URL (or --url) at it';

export class EmulatorControl implements EmulatorControlApi {
  private constructor(
    private readonly base: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Checks that `baseUrl` is a loopback address answering GET /_emulator/clock, and returns a
   * control client for it. Refuses with a UserError otherwise.
   */
  static async connect(baseUrl: string, opts: { timeoutMs?: number } = {}): Promise<EmulatorControl> {
    let parsed: { baseUrl: string; origin: string };
    try {
      parsed = parseBaseUrl(baseUrl);
    } catch {
      throw new UserError(`the service URL is not usable; ${NOT_AN_EMULATOR}`);
    }
    const host = new URL(parsed.origin).hostname;
    if (!isLoopbackHost(host)) {
      throw new UserError(`${host} is not a loopback address; ${NOT_AN_EMULATOR}`);
    }
    const control = new EmulatorControl(parsed.baseUrl, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      await control.clock();
    } catch (err) {
      const why = err instanceof ControlError ? err.message : err instanceof Error ? err.message : String(err);
      throw new UserError(`the target does not answer GET /_emulator/clock (${why}); ${NOT_AN_EMULATOR}`);
    }
    return control;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(`${this.base}/_emulator/${path}`, {
        method,
        // No authorization header, ever: nothing of the user's credentials goes to /_emulator/.
        headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new ControlError(`${method} /_emulator/${path}: ${cause ?? (err instanceof Error ? err.name : 'no answer')}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ControlError(`${method} /_emulator/${path} answered ${res.status} without JSON`);
    }
    if (!res.ok) {
      const msg = typeof (json as { error?: unknown })?.error === 'string' ? `: ${(json as { error: string }).error}` : '';
      throw new ControlError(`${method} /_emulator/${path} answered ${res.status}${msg}`, res.status);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new ControlError(`${method} /_emulator/${path} answered something other than a JSON object`);
    }
    return json as Record<string, unknown>;
  }

  private static now(body: Record<string, unknown>, what: string): number {
    const now = body.now;
    if (typeof now !== 'number' || !Number.isFinite(now)) throw new ControlError(`${what}: no "now" in the answer`);
    return now;
  }

  async clock(): Promise<number> {
    return EmulatorControl.now(await this.call('GET', 'clock'), 'GET /_emulator/clock');
  }

  async advance(seconds: number): Promise<number> {
    return EmulatorControl.now(await this.call('POST', 'clock', { advance_seconds: seconds }), 'POST /_emulator/clock');
  }

  async outage(monitorId: string, seconds: number): Promise<void> {
    try {
      await this.call('POST', 'outage', { monitor: monitorId, seconds });
    } catch (err) {
      if (err instanceof ControlError && (err.status === 404 || err.status === 405)) {
        throw new UserError(`this emulator cannot force outages (${err.message}); it predates the alert simulation the drill needs`);
      }
      throw err;
    }
  }

  async outbox(since: number): Promise<OutboxMessage[]> {
    const body = await this.call('GET', `outbox?since=${Math.floor(since)}`);
    if (!Array.isArray(body.messages)) throw new ControlError('GET /_emulator/outbox: no "messages" array in the answer');
    return body.messages.map((m, i) => parseMessage(m, i));
  }
}

/** A control call that failed; shown to the user as a plain message (it is a UserError). */
export class ControlError extends UserError {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(`emulator control: ${message}`);
  }
}

function parseMessage(m: unknown, i: number): OutboxMessage {
  const where = `GET /_emulator/outbox: messages[${i}]`;
  if (typeof m !== 'object' || m === null) throw new ControlError(`${where} is not an object`);
  const o = m as Record<string, unknown>;
  const id = (k: string): string => {
    const v = o[k];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    throw new ControlError(`${where}.${k} is not an id`);
  };
  if (typeof o.time !== 'number' || !Number.isFinite(o.time)) throw new ControlError(`${where}.time is not unix seconds`);
  if (o.kind !== 'down' && o.kind !== 'up') throw new ControlError(`${where}.kind is neither "down" nor "up"`);
  return {
    time: o.time,
    alert: id('alert'),
    monitor: id('monitor'),
    destination: id('destination'),
    kind: o.kind,
    subject: typeof o.subject === 'string' ? o.subject : '',
    body: typeof o.body === 'string' ? o.body : '',
    // Recorded as not delivered only when the emulator says so.
    delivered: o.delivered !== false,
  };
}
