/**
 * The command context (src/workflow/context.ts) in process, without a service: accounts resolved and
 * refused before any request, the configuration loaded through the io's cwd and env (never the
 * process's), the service's clock from the io's clock and the client's offset, and the one
 * per-account loop: outcomes in declaration order, one account's failure contained, a stop honoured.
 */
import { describe, expect, it } from 'vitest';
import type { MonitoringApi } from '../../src/api/types.js';
import { UserError } from '../../src/util/errors.js';
import { commandContext, forEachAccount, openCommand, type CommandContext } from '../../src/workflow/context.js';
import { writeTree } from '../config/helpers.js';
import { captureIo } from '../helpers/io.js';

const DECLARED = `version: 1
settings:
  owner: ctx
  accounts:
    staging:
      paths: [mx.yaml]
      vars: { REGION: eu }
    prod:
      paths: [mx.yaml]
      owner: prod-team
`;

/** The account's own file: its label comes from the account's vars. */
const MX = `version: 1
monitors:
  - label: mx-\${REGION:-none}
    ip_address: mx.example.com
    time_zone: UTC
    timer: 5
    test_account: probe@example.com
`;

describe('openCommand', () => {
  it('gives one context per account chosen, in declaration order, each with its own variables as MONSYNC_*', async () => {
    const dir = await writeTree({ 'monsync.yaml': DECLARED, 'mx.yaml': MX });
    const io = captureIo({ MONSYNC_STAGING_URL: 'http://127.0.0.1:1', MONSYNC_PROD_URL: 'http://127.0.0.1:2', MONSYNC_URL: 'http://127.0.0.1:3' }, { cwd: dir });
    const run = await openCommand({ io, paths: [], choice: { allAccounts: true } });
    expect(run.several).toBe(true);
    expect(run.contexts.map((c) => [c.account?.name, c.io.env.MONSYNC_URL])).toEqual([
      ['staging', 'http://127.0.0.1:1'],
      ['prod', 'http://127.0.0.1:2'],
    ]);
  });

  it('loads each account\'s configuration with its vars and owner, from the io\'s directory', async () => {
    const dir = await writeTree({ 'monsync.yaml': DECLARED, 'mx.yaml': MX });
    const io = captureIo({}, { cwd: dir });
    const [staging, prod] = (await openCommand({ io, paths: [], choice: { allAccounts: true } })).contexts;
    const s = (await staging!.loadConfiguration()).desired;
    const p = (await prod!.loadConfiguration()).desired;
    expect([s.monitors[0]!.label, s.settings.owner]).toEqual(['mx-eu', 'ctx']);
    expect([p.monitors[0]!.label, p.settings.owner]).toEqual(['mx-none', 'prod-team']);
  });

  it('refuses two accounts on one service login before anything is read, naming both', async () => {
    const dir = await writeTree({ 'monsync.yaml': DECLARED, 'mx.yaml': MX });
    const login = { USERNAME: 'a@example.com', PASSWORD: 'pw' };
    const env = Object.fromEntries(
      ['MONSYNC_STAGING_', 'MONSYNC_PROD_'].flatMap((p, i) => [[`${p}URL`, i === 0 ? 'http://127.0.0.1:1' : 'HTTP://127.0.0.1:1/'], ...Object.entries(login).map(([k, v]) => [`${p}${k}`, v])]),
    );
    const refused = openCommand({ io: captureIo(env, { cwd: dir }), paths: [], choice: { allAccounts: true } });
    await expect(refused).rejects.toBeInstanceOf(UserError);
    await expect(refused).rejects.toThrow(/accounts staging and prod resolve to the same service and login/);
  });

  it('refuses localhost beside 127.0.0.1 and [::1] on one port, and logins differing in case or spaces, as one service login (issue 45)', async () => {
    const dir = await writeTree({ 'monsync.yaml': DECLARED, 'mx.yaml': MX });
    const pairs: [string, string, string, string][] = [
      ['http://localhost:8181', 'http://127.0.0.1:8181', 'a@example.com', 'a@example.com'],
      ['http://[::1]:8181', 'http://localhost:8181/', 'a@example.com', 'a@example.com'],
      ['http://127.0.0.1:8181', 'http://127.0.0.1:8181', 'A@Example.com', ' a@example.com '],
    ];
    for (const [u1, u2, l1, l2] of pairs) {
      const env = { MONSYNC_STAGING_URL: u1, MONSYNC_PROD_URL: u2, MONSYNC_STAGING_USERNAME: l1, MONSYNC_PROD_USERNAME: l2, MONSYNC_STAGING_PASSWORD: 'pw', MONSYNC_PROD_PASSWORD: 'pw' };
      const refused = openCommand({ io: captureIo(env, { cwd: dir }), paths: [], choice: { allAccounts: true } });
      await expect(refused, `${u1} ${u2} ${l1} ${l2}`).rejects.toThrow(/^accounts staging and prod resolve to the same service and login \(.*\): one would undo the other's changes; nothing was sent: point MONSYNC_PROD_URL/);
    }
  });

  it('refuses a name the resolver given resolves to the other account\'s address', async () => {
    const dir = await writeTree({ 'monsync.yaml': DECLARED, 'mx.yaml': MX });
    const env = { MONSYNC_STAGING_URL: 'https://203.0.113.7', MONSYNC_PROD_URL: 'https://kf.test.example', MONSYNC_STAGING_USERNAME: 'a@example.com', MONSYNC_PROD_USERNAME: 'a@example.com' };
    const resolve = async (host: string) => (host === 'kf.test.example' ? ['203.0.113.7'] : []);
    await expect(openCommand({ io: captureIo(env, { cwd: dir }), paths: [], choice: { allAccounts: true }, resolve })).rejects.toThrow(/both reach 203\.0\.113\.7/);
  });

  it('a configuration broken on disk is one UserError naming the file and saying what was not done', async () => {
    const dir = await writeTree({ 'monsync.yaml': 'version: 1\nmonitors:\n  - label: 3\n' });
    const ctx = commandContext(captureIo({}, { cwd: dir }), []);
    await expect(ctx.loadConfiguration({ consequence: 'nothing was paused' })).rejects.toSatisfy(
      (e: unknown) => e instanceof UserError && /; nothing was paused$/.test(e.message) && e.details.some((d) => d.startsWith('monsync.yaml:')),
    );
    const read = await ctx.readConfiguration();
    expect(read.ok).toBe(false);
  });
});

describe('serviceNow', () => {
  it('is the io\'s clock plus the offset the client measured from the service\'s Date header', () => {
    const ctx = commandContext(captureIo({}, { now: 1_000_000 }), []);
    const api = { serviceClockOffsetMs: () => 60_000 } as unknown as MonitoringApi;
    expect(ctx.serviceNow(api)).toBe(1_060_000);
  });
});

describe('forEachAccount', () => {
  const contexts = (names: string[]): CommandContext[] =>
    names.map((name) => commandContext(captureIo({}), [], {}, { name, paths: [], vars: {}, envPrefix: `MONSYNC_${name.toUpperCase()}_` }));

  it('tells the outcomes in declaration order while running a few at once, and contains one account\'s failure', async () => {
    const told: string[] = [];
    let running = 0;
    let most = 0;
    const outcomes = await forEachAccount(
      contexts(['a', 'b', 'c', 'd']),
      async (ctx) => {
        running++;
        most = Math.max(most, running);
        // Later accounts finish first: the order told must still be the declared one.
        await new Promise((r) => setTimeout(r, { a: 30, b: 20, c: 10, d: 0 }[ctx.account!.name]));
        running--;
        if (ctx.account!.name === 'b') throw new UserError('no service URL: set MONSYNC_URL');
        return ctx.account!.name.toUpperCase();
      },
      { concurrency: 2, onOutcome: (o) => told.push(o.context.account!.name) },
    );
    expect(told).toEqual(['a', 'b', 'c', 'd']);
    expect(most).toBe(2);
    expect(outcomes.map((o) => ('error' in o ? `error ${o.error[0]} (${o.exitCode})` : o.value))).toEqual(['A', 'error no service URL: set MONSYNC_URL (1)', 'C', 'D']);
  });

  it('starts no further account after a stop, and lets a bug propagate', async () => {
    const ran: string[] = [];
    const outcomes = await forEachAccount(
      contexts(['a', 'b', 'c']),
      async (ctx) => {
        ran.push(ctx.account!.name);
        return ctx.account!.name === 'a' ? 130 : 0;
      },
      { stopAfter: (o) => 'value' in o && o.value === 130 },
    );
    expect(ran).toEqual(['a']);
    expect(outcomes).toHaveLength(1);
    await expect(forEachAccount(contexts(['a']), async () => Promise.reject(new TypeError('a bug')))).rejects.toThrow('a bug');
  });
});
