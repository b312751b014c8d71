/**
 * One service, one name (issue 45): two accounts whose URLs reach the same place as the same login
 * are one service, whatever the names: `localhost`, `127.0.0.1` and `[::1]` are all this machine;
 * a name that a DNS server (dns2 on 127.0.0.1) resolves to another account's address is that
 * address; logins differing in case or surrounding spaces are one login.
 */
import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameServiceProblem, systemResolve, type ResolveHost } from '../../src/api/same-service.js';
import { startDns, type TestDns } from '../helpers/mail-servers.js';

let dns: TestDns;
let viaDns: ResolveHost;

beforeAll(async () => {
  dns = await startDns({
    'mon.test.example': { A: ['192.0.2.10'] },
    'alias.test.example': { A: ['192.0.2.99', '192.0.2.10'] },
    'other.test.example': { A: ['192.0.2.20'] },
    'v6.test.example': { AAAA: ['2001:db8::10'] },
  });
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([dns.server]);
  viaDns = async (host) => {
    const [a, aaaa] = await Promise.all([resolver.resolve4(host).catch(() => []), resolver.resolve6(host).catch(() => [])]);
    return [...a, ...aaaa];
  };
}, 30_000);
afterAll(async () => {
  await dns?.close();
});

const acct = (name: string, url: string, login = 'ops@example.com') => ({ name, url, login });

describe('two accounts on one service are one, however their URLs name it', () => {
  it('refuses localhost, 127.0.0.1 and [::1] on one port as one service, naming both accounts and why', async () => {
    for (const [a, b] of [
      ['http://localhost:8181', 'http://127.0.0.1:8181'],
      ['http://127.0.0.1:8181', 'http://[::1]:8181/'],
      ['http://localhost:8181', 'http://127.0.0.2:8181'],
    ] as const) {
      const problem = await sameServiceProblem([acct('staging', a), acct('prod', b)], systemResolve);
      expect(problem?.second, `${a} ${b}`).toBe(1);
      expect(problem!.message).toMatch(/^accounts staging and prod resolve to the same service and login \(.* both reach this machine, as ops@example\.com\)/);
    }
  });

  it('refuses a name that DNS resolves to another account\'s address', async () => {
    const problem = await sameServiceProblem([acct('staging', 'https://192.0.2.10'), acct('prod', 'https://alias.test.example:443/')], viaDns);
    expect(problem?.message).toMatch(/accounts staging and prod .*https:\/\/192\.0\.2\.10 and https:\/\/alias\.test\.example both reach 192\.0\.2\.10/);
    expect(dns.questions).toContain('A alias.test.example');
    const twoNames = await sameServiceProblem([acct('staging', 'https://mon.test.example'), acct('prod', 'https://alias.test.example')], viaDns);
    expect(twoNames?.second).toBe(1);
  });

  it('refuses logins that differ only in case or surrounding spaces', async () => {
    const problem = await sameServiceProblem([acct('staging', 'https://mon.test.example', 'Ops@Example.com'), acct('prod', 'https://mon.test.example', ' ops@example.com ')], viaDns);
    expect(problem?.message).toMatch(/as "Ops@Example\.com" and " ops@example\.com ", one login to the service \(trimmed, case aside\)/);
  });

  it('lets accounts on other addresses, ports, schemes, paths or logins run', async () => {
    const cases: [string, string, string?][] = [
      ['https://mon.test.example', 'https://other.test.example'],
      ['http://127.0.0.1:8181', 'http://127.0.0.1:8182'],
      ['http://mon.test.example', 'https://mon.test.example'],
      ['https://mon.test.example/a', 'https://mon.test.example/b'],
      ['https://mon.test.example', 'https://mon.test.example', 'someone-else@example.com'],
      ['https://v6.test.example', 'https://mon.test.example'],
    ];
    for (const [a, b, login] of cases) {
      expect(await sameServiceProblem([acct('staging', a), acct('prod', b, login)], viaDns), `${a} ${b}`).toBeNull();
    }
  });

  it('applies the scheme\'s default port: https://h and https://h:443 are one', async () => {
    expect((await sameServiceProblem([acct('staging', 'https://mon.test.example'), acct('prod', 'https://mon.test.example:443')], viaDns))?.second).toBe(1);
  });
});
