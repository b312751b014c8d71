import { describe, expect, it } from 'vitest';
import { clientOptionsFromEnv } from '../../src/api/config.js';
import { ApiError } from '../../src/api/errors.js';
import { isLoopbackHost, parseBaseUrl } from '../../src/api/url.js';
import { redact } from '../../src/util/redact.js';

function configError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('config');
    return err as ApiError;
  }
  throw new Error('expected a config ApiError');
}

const BASE = {
  MONSYNC_URL: 'https://api.example.com',
  MONSYNC_USERNAME: 'me@example.com',
  MONSYNC_PASSWORD: 'pw-config-test-1',
};

describe('clientOptionsFromEnv', () => {
  it('reads URL and v1 credentials, and v2 credentials when given', () => {
    expect(clientOptionsFromEnv(BASE)).toEqual({
      baseUrl: 'https://api.example.com',
      username: 'me@example.com',
      password: 'pw-config-test-1',
    });
    const opts = clientOptionsFromEnv(
      { ...BASE, MONSYNC_CLIENT_ID: 'cid', MONSYNC_CLIENT_SECRET: 'secret-config-test-2' },
      { timeoutMs: 5000, concurrency: 3 },
    );
    expect(opts).toMatchObject({ clientId: 'cid', clientSecret: 'secret-config-test-2', timeoutMs: 5000, concurrency: 3 });
  });

  it('reads the deadline of a call from MONSYNC_DEADLINE in seconds, and refuses one that is not a positive number', () => {
    expect(clientOptionsFromEnv({ ...BASE, MONSYNC_DEADLINE: '90' }).deadlineMs).toBe(90_000);
    expect(clientOptionsFromEnv({ ...BASE, MONSYNC_DEADLINE: '0.5' }).deadlineMs).toBe(500);
    expect(clientOptionsFromEnv({ ...BASE, MONSYNC_DEADLINE: '' }).deadlineMs).toBeUndefined();
    expect(clientOptionsFromEnv({ ...BASE, MONSYNC_DEADLINE: '90' }, { deadlineMs: 1000 }).deadlineMs).toBe(1000);
    for (const bad of ['0', '-3', 'a minute', 'Infinity']) {
      expect(configError(() => clientOptionsFromEnv({ ...BASE, MONSYNC_DEADLINE: bad })).message).toBe(
        `MONSYNC_DEADLINE must be a positive number of seconds, got ${JSON.stringify(bad)}`,
      );
    }
  });

  it('registers secrets for redaction', () => {
    clientOptionsFromEnv({ ...BASE, MONSYNC_PASSWORD: 'pw-registered-3', MONSYNC_CLIENT_ID: 'c', MONSYNC_CLIENT_SECRET: 'cs-registered-4' });
    expect(redact('x pw-registered-3 y cs-registered-4')).toBe('x *** y ***');
  });

  it('lets an override URL win over MONSYNC_URL', () => {
    expect(clientOptionsFromEnv(BASE, { url: 'http://127.0.0.1:8181/' }).baseUrl).toBe('http://127.0.0.1:8181');
  });

  it('names MONSYNC_URL and suggests the emulator when the URL is missing', () => {
    const err = configError(() => clientOptionsFromEnv({ MONSYNC_USERNAME: 'u', MONSYNC_PASSWORD: 'p' }));
    expect(err.message).toContain('MONSYNC_URL');
    expect(err.message).toContain('monsync emulator');
  });

  it('names the missing v1 variable', () => {
    expect(configError(() => clientOptionsFromEnv({ MONSYNC_URL: BASE.MONSYNC_URL })).message).toMatch(
      /MONSYNC_USERNAME.*MONSYNC_PASSWORD.*monsync emulator/,
    );
    expect(
      configError(() => clientOptionsFromEnv({ MONSYNC_URL: BASE.MONSYNC_URL, MONSYNC_USERNAME: 'u' })).message,
    ).toContain('set MONSYNC_PASSWORD');
    expect(
      configError(() => clientOptionsFromEnv({ MONSYNC_URL: BASE.MONSYNC_URL, MONSYNC_PASSWORD: 'pw-x-5' })).message,
    ).toContain('set MONSYNC_USERNAME');
  });

  it('refuses half of the v2 credentials', () => {
    expect(configError(() => clientOptionsFromEnv({ ...BASE, MONSYNC_CLIENT_ID: 'c' })).message).toContain('MONSYNC_CLIENT_SECRET');
  });

  it('refuses a URL with embedded credentials without echoing it', () => {
    const err = configError(() => clientOptionsFromEnv({ ...BASE, MONSYNC_URL: 'https://me:hunter2-url-pw@api.example.com/' }));
    expect(err.message).not.toContain('hunter2-url-pw');
    expect(err.message).not.toContain('api.example.com');
    expect(JSON.stringify(err)).not.toContain('hunter2-url-pw');
    expect(err.message).toContain('MONSYNC_URL');
  });

  it('refuses plain http to a non-loopback host', () => {
    const err = configError(() => clientOptionsFromEnv({ ...BASE, MONSYNC_URL: 'http://api.example.com' }));
    expect(err.message).toContain('https://');
  });

  it('refuses an unparsable URL without echoing it', () => {
    const err = configError(() => clientOptionsFromEnv({ ...BASE, MONSYNC_URL: 'not a url pw-in-garbage' }));
    expect(err.message).not.toContain('pw-in-garbage');
  });

  it('refuses bad numeric overrides', () => {
    configError(() => clientOptionsFromEnv(BASE, { concurrency: 0 }));
    configError(() => clientOptionsFromEnv(BASE, { timeoutMs: -1 }));
  });
});

describe('base URL rules', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.10.20.30', true],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['127.0.0.1.example.com', false],
    ['example.com', false],
    ['10.0.0.1', false],
  ])('loopback(%s) = %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it('keeps a path prefix and drops the trailing slash', () => {
    expect(parseBaseUrl('https://h.example/api/')).toEqual({
      origin: 'https://h.example',
      prefix: '/api',
      baseUrl: 'https://h.example/api',
    });
    expect(parseBaseUrl('http://[::1]:8080').baseUrl).toBe('http://[::1]:8080');
  });

  it('refuses other schemes', () => {
    configError(() => parseBaseUrl('ftp://h.example'));
  });
});
