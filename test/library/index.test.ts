/**
 * The library's own functions (src/index.ts), in process: what they add to the modules they wrap
 * (defaults, settings from options or the environment, errors as typed values). The packed
 * package and the example are test/e2e/library.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, connect, diff, executePlan, loadConfig, PlanError, readAccount, startEmulator } from '../../src/index.js';

describe('monsync as a library', () => {
  it('connect() takes its settings from the options over the environment, and names what is missing, never a value', () => {
    expect(() => connect({ env: {} })).toThrow(ApiError);
    expect(() => connect({ env: {} })).toThrow(/no service URL: set MONSYNC_URL/);
    try {
      connect({ url: 'http://127.0.0.1:1', password: 'hunter2-secret', env: {} });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).kind).toBe('config');
      expect((err as Error).message).toContain('MONSYNC_USERNAME');
      expect((err as Error).message).not.toContain('hunter2-secret');
    }
    const env = { MONSYNC_URL: 'http://127.0.0.1:9/x', MONSYNC_USERNAME: 'a@example.com', MONSYNC_PASSWORD: 'from-env' };
    expect(connect({ env }).baseUrl).toBe('http://127.0.0.1:9/x');
    expect(connect({ env, url: 'http://127.0.0.1:8' }).baseUrl).toBe('http://127.0.0.1:8');
    expect(() => connect({ env, url: 'http://example.com' })).toThrow(ApiError);
  });

  it('plans and applies a configuration built in code against the emulator it starts, as the owner the configuration names', async () => {
    const emulator = await startEmulator({ seed: 'empty' });
    const client = connect({ url: emulator.url, ...emulator.credentials, env: {} });
    try {
      const data = {
        version: 1,
        settings: { owner: 'library-test' },
        monitors: [{ label: 'mx-lib', ip_address: 'mx.example.com', test_account: 'p@example.com', time_zone: 'UTC', timer: 5 }],
      };
      const loaded = await loadConfig([{ name: 'gen', data }], { env: {} });
      if (!('state' in loaded)) throw new Error('expected a state');
      const plan = diff(loaded.state, await readAccount(client, loaded.state), { target: client.baseUrl });
      expect(plan.summary).toMatchObject({ create: 1, update: 0, delete: 0 });
      const events: string[] = [];
      const result = await executePlan(plan, client, { onEvent: (e) => events.push(e.type) });
      expect(result).toMatchObject({ done: 1, failed: 0, skipped: 0 });
      expect(events).toEqual(['started', 'finished']);
      const live = await readAccount(client);
      expect(live.monitors.map((m) => [m.label, m.meta['managed-by']])).toEqual([['mx-lib', 'library-test']]);
      expect(diff(loaded.state, live, { target: client.baseUrl }).changes).toEqual([]);

      // A configuration that cannot be planned against the account: a PlanError listing the problems.
      const other = await loadConfig([{ name: 'other', data: { ...data, settings: { owner: 'someone-else' } } }], { env: {} });
      if (!('state' in other)) throw new Error('expected a state');
      expect(() => diff(other.state, live, { target: client.baseUrl })).toThrow(PlanError);
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
