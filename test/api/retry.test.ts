import { describe, expect, it } from 'vitest';
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  RETRY_AFTER_CAP_MS,
  backoffMs,
  classifyMethod,
  parseRetryAfter,
  retryDecision,
  type Failure,
} from '../../src/api/retry.js';
import { Semaphore } from '../../src/api/semaphore.js';
import { classifyTransportError } from '../../src/api/answer.js';

const S = (status: number): Failure => ({ kind: 'status', status });
const NOT_SENT: Failure = { kind: 'not-sent' };
const RESET: Failure = { kind: 'reset' };
const TIMEOUT: Failure = { kind: 'timeout' };

describe('classifyMethod', () => {
  it.each([
    ['GET', '/v1/Config/Monitor/', 'read'],
    ['GET', '/v1/Status/Filter/?prefix=x', 'read'],
    ['POST', '/v2/token', 'read'],
    ['PUT', '/v1/Config/Monitor/m1/', 'idempotent-write'],
    ['DELETE', '/v1/Config/Alert/a1/', 'idempotent-write'],
    ['DELETE', '/v1/Pause/Alert/', 'idempotent-write'],
    ['POST', '/v1/Pause/Alert/', 'idempotent-write'],
    ['POST', '/v1/Pause/Monitor/m1/', 'idempotent-write'],
    ['POST', '/v1/Config/Monitor/', 'create'],
    ['POST', '/v1/Config/Alert/', 'create'],
    ['POST', '/v1/Config/Group/', 'create'],
  ] as const)('%s %s is %s', (method, path, cls) => {
    expect(classifyMethod(method, path)).toBe(cls);
  });
});

describe('retryDecision', () => {
  const everyMethod: Array<[string, string]> = [
    ['GET', '/v1/Config/Monitor/'],
    ['PUT', '/v1/Config/Monitor/m1/'],
    ['DELETE', '/v1/Config/Monitor/m1/'],
    ['POST', '/v1/Pause/Alert/a1/'],
    ['POST', '/v1/Config/Monitor/'],
    ['POST', '/v1/Config/Alert/'],
    ['POST', '/v1/Config/Group/'],
  ];

  it.each(everyMethod)('%s %s: 429 and never-sent are retried, nothing applied', (method, path) => {
    expect(retryDecision(method, path, S(429), 1, 4)).toEqual({ retry: true, maybeApplied: false });
    expect(retryDecision(method, path, NOT_SENT, 1, 4)).toEqual({ retry: true, maybeApplied: false });
  });

  it.each([
    ['GET', '/v1/Config/Alert/'],
    ['POST', '/v2/token'],
  ])('read %s %s: retried on 502/503/504/reset/timeout', (method, path) => {
    for (const f of [S(502), S(503), S(504), RESET, TIMEOUT]) {
      expect(retryDecision(method, path, f, 1, 4)).toEqual({ retry: true, maybeApplied: false });
    }
  });

  it.each([
    ['PUT', '/v1/Config/Group/g1/'],
    ['DELETE', '/v1/Config/Group/g1/'],
    ['POST', '/v1/Pause/Monitor/m1/'],
    ['DELETE', '/v1/Pause/Alert/m1/'],
  ])('idempotent write %s %s: retried on 502/503/504/reset/timeout', (method, path) => {
    for (const f of [S(502), S(503), S(504), RESET, TIMEOUT]) {
      expect(retryDecision(method, path, f, 1, 4)).toEqual({ retry: true, maybeApplied: true });
    }
  });

  it.each([['/v1/Config/Monitor/'], ['/v1/Config/Alert/'], ['/v1/Config/Group/']])(
    'create POST %s: never retried once possibly sent, marked maybeApplied',
    (path) => {
      for (const f of [S(500), S(502), S(503), S(504), RESET, TIMEOUT]) {
        expect(retryDecision('POST', path, f, 1, 4)).toEqual({ retry: false, maybeApplied: true });
      }
      // A refused validation was not applied.
      expect(retryDecision('POST', path, S(400), 1, 4)).toEqual({ retry: false, maybeApplied: false });
    },
  );

  it('does not retry other statuses', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 500, 501]) {
      expect(retryDecision('GET', '/v1/Status/', S(status), 1, 4).retry).toBe(false);
    }
  });

  it('stops when the retry budget is used up', () => {
    expect(retryDecision('GET', '/v1/Status/', S(503), 4, 4).retry).toBe(true);
    expect(retryDecision('GET', '/v1/Status/', S(503), 5, 4).retry).toBe(false);
    expect(retryDecision('POST', '/v1/Config/Monitor/', S(429), 1, 0).retry).toBe(false);
    // Budget exhausted on a write still reports that it may have been applied.
    expect(retryDecision('PUT', '/v1/Config/Monitor/m/', TIMEOUT, 5, 4)).toEqual({ retry: false, maybeApplied: true });
  });

  it('never retries a failed TLS handshake, and knows nothing was applied', () => {
    for (const [method, path] of [['GET', '/v1/Status/'], ['PUT', '/v1/Config/Monitor/m/'], ['POST', '/v1/Config/Monitor/']] as const) {
      expect(retryDecision(method, path, { kind: 'tls' }, 1, 4)).toEqual({ retry: false, maybeApplied: false });
    }
  });
});

describe('classifyTransportError', () => {
  it('reads an untrusted certificate as a TLS failure that names the host and the code', () => {
    const err = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    const f = classifyTransportError(err, false, false, 30_000, 512e6, 'api.example.com:443');
    expect(f.failure).toEqual({ kind: 'tls' });
    expect(f.detail).toBe(
      'TLS handshake with api.example.com:443 failed: the certificate is not signed by a CA this machine trusts (DEPTH_ZERO_SELF_SIGNED_CERT); ' +
        'to trust a CA of your own (a TLS-inspecting proxy, `monsync emulator --tls`), set NODE_EXTRA_CA_CERTS to its PEM file',
    );
  });

  // "not trusted or does not match" left a person to guess which: each code says what to look at.
  it('says whether the certificate is for another name, out of date, or from an unknown CA', () => {
    const detail = (code: string) => classifyTransportError(Object.assign(new Error('x'), { code }), false, false, 30_000, 512e6).detail;
    expect(detail('ERR_TLS_CERT_ALTNAME_INVALID')).toBe('TLS handshake failed: the certificate is for another host name (ERR_TLS_CERT_ALTNAME_INVALID)');
    expect(detail('CERT_HAS_EXPIRED')).toBe("TLS handshake failed: the certificate is not valid at this time (CERT_HAS_EXPIRED); check this machine's clock");
    expect(detail('SELF_SIGNED_CERT_IN_CHAIN')).toMatch(/not signed by a CA this machine trusts \(SELF_SIGNED_CERT_IN_CHAIN\); .*NODE_EXTRA_CA_CERTS/);
    expect(detail('ERR_SSL_WRONG_VERSION_NUMBER')).toMatch(/^TLS handshake failed: the server answered in plain HTTP, not TLS \(ERR_SSL_WRONG_VERSION_NUMBER\); if it serves plain HTTP, write the URL with http:\/\//);
  });

  it('finds a TLS code in the cause of a wrapped error', () => {
    const err = Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error('altname'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }) });
    expect(classifyTransportError(err, false, false, 30_000, 512e6).failure).toEqual({ kind: 'tls' });
  });

  it('still reads a reset as a connection lost after the request may have been written', () => {
    const err = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(classifyTransportError(err, false, false, 30_000, 512e6).failure).toEqual({ kind: 'reset' });
  });
});

describe('backoffMs', () => {
  it('uses full jitter under an exponential ceiling capped at 5 s', () => {
    expect(backoffMs(1, null, () => 0.999999)).toBe(BACKOFF_BASE_MS - 1);
    expect(backoffMs(3, null, () => 0.5)).toBe(400);
    expect(backoffMs(20, null, () => 0.999999)).toBe(BACKOFF_CAP_MS - 1);
    expect(backoffMs(5, null, () => 0)).toBe(0);
  });

  it('honours Retry-After, capped', () => {
    expect(backoffMs(1, 2000, () => 0)).toBe(2000);
    expect(backoffMs(1, 0, () => 0.9)).toBe(0);
    expect(backoffMs(1, 3_600_000, () => 0)).toBe(RETRY_AFTER_CAP_MS);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(['1'])).toBe(1000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', Date.parse('Wed, 01 Jan 2025 00:00:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter(undefined)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('Semaphore', () => {
  it('never lets more than the limit run and hands slots over in order', async () => {
    const sem = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = async (i: number): Promise<void> => {
      const release = await sem.acquire();
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      order.push(i);
      running--;
      release();
      release(); // a second release is harmless
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(task));
    expect(peak).toBe(2);
    expect(order).toHaveLength(6);
    expect(sem.inUse).toBe(0);
  });
});
