/** `monsync test`'s runner in process: its usage errors come before anything is read or asked. */
import { describe, expect, it } from 'vitest';
import { runTest, type TestOptions } from '../../src/cli/test.js';
import { UsageError } from '../../src/util/errors.js';
import { captureIo } from '../helpers/io.js';

const opts = (over: Partial<TestOptions> = {}): TestOptions => ({ concurrency: '32', stepTimeout: '10', ...over });

describe('monsync test, usage errors', () => {
  it.each([
    [{ format: 'html' }, '--format must be text, json or markdown, got "html"'],
    [{ concurrency: '0' }, '--concurrency must be a whole number of at least 1, got "0"'],
    [{ stepTimeout: 'soon' }, '--step-timeout must be a number of seconds above 0, got "soon"'],
    [{ deadline: '0' }, '--deadline must be a number of seconds above 0, got "0"'],
    [{ smtpPort: '70000' }, '--smtp-port must be at most 65535, got 70000'],
    [{ mailFrom: '<probe@example.com>' }, '--mail-from must be a bare address (no <>, no spaces), got "<probe@example.com>"'],
  ] as const)('%o: %s', async (over, message) => {
    const io = captureIo({});
    const err = await runTest(['does-not-exist.yaml'], opts(over), io).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(message);
    expect(io.stdout).toBe('');
  });

  it('refuses a MONSYNC_DNS_SERVERS entry that is not an address, naming it', async () => {
    const err = await runTest(['does-not-exist.yaml'], opts(), captureIo({ MONSYNC_DNS_SERVERS: '127.0.0.1:5353, ns.example.com' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toContain('"ns.example.com" is not an IP address');
  });
});
