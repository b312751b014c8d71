/**
 * Accounts resolved once, by the command context, before any request (issue 35): two accounts of
 * one run that reach the same service as the same login are refused, naming both (the second would
 * undo the first's writes); an `env_prefix: MONSYNC_` does not quietly bring back the plain
 * MONSYNC_URL and credentials; and the hint after `plan --account NAME --out F` works as printed.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD, runCli, USERNAME } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { configYaml, e2eSuite, managed, state, type Workspace } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

/** Only the accounts' own variables are set unless `env` says otherwise. */
const cli = (args: string[], env: Record<string, string | undefined>) =>
  runCli(args, { url: 'http://127.0.0.1:9', cwd: ws.dir, env: { MONSYNC_URL: undefined, MONSYNC_USERNAME: undefined, MONSYNC_PASSWORD: undefined, ...env } });

/** A repository declaring staging and prod; `prodExtra` is added under prod. */
async function repo(prodExtra = ''): Promise<void> {
  const base = configYaml({ monitors: [{ label: 'mx-common' }] }).replace(
    'settings:\n',
    `settings:\n  accounts:\n    staging:\n      paths: [staging/]\n    prod:\n      paths: [prod/]\n${prodExtra}`,
  );
  await ws.write('monsync.yaml', base);
  await ws.write('staging/s.yaml', 'version: 1\nmonitors:\n  - label: mx-staging\n    ip_address: staging.example.com\n');
  await ws.write('prod/p.yaml', 'version: 1\nmonitors:\n  - label: mx-prod\n    ip_address: prod.example.com\n');
}

const login = (prefix: string, url: string) => ({ [`${prefix}URL`]: url, [`${prefix}USERNAME`]: USERNAME, [`${prefix}PASSWORD`]: PASSWORD });

describe('two accounts of one run on one service login', () => {
  it('apply --all-accounts with MONSYNC_STAGING_URL=$U and MONSYNC_PROD_URL=$U/ is refused before any request, naming both', async () => {
    await repo();
    await emu.control.clearRequests();
    const r = await cli(['apply', '--all-accounts', '--auto-approve'], { ...login('MONSYNC_STAGING_', emu.url), ...login('MONSYNC_PROD_', `${emu.url}/`) });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/accounts staging and prod resolve to the same service and login/);
    expect(r.stdout).not.toContain('done');
    expect(await emu.control.requests()).toEqual([]);
    expect(managed(await state(emu), 'e2e')).toEqual([]);
  });

  it('the same when prod reads staging\'s variables through env_prefix', async () => {
    await repo('      env_prefix: MONSYNC_STAGING_\n');
    await emu.control.clearRequests();
    const r = await cli(['apply', '--all-accounts', '--auto-approve'], login('MONSYNC_STAGING_', emu.url));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/accounts staging and prod resolve to the same service and login/);
    expect(await emu.control.requests()).toEqual([]);
  });

  it('plan --all-accounts is refused the same way: the two plans would fight over one account', async () => {
    await repo();
    await emu.control.clearRequests();
    const r = await cli(['plan', '--all-accounts'], { ...login('MONSYNC_STAGING_', emu.url), ...login('MONSYNC_PROD_', emu.url) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/accounts staging and prod resolve to the same service and login/);
    expect(await emu.control.requests()).toEqual([]);
  });
});

describe('one service under two names (issue 45)', () => {
  it('apply --all-accounts with http://localhost:P beside http://127.0.0.1:P is refused before any request, naming both', async () => {
    await repo();
    await emu.control.clearRequests();
    const r = await cli(['apply', '--all-accounts', '--auto-approve'], { ...login('MONSYNC_STAGING_', emu.url.replace('127.0.0.1', 'localhost')), ...login('MONSYNC_PROD_', emu.url) });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/accounts staging and prod resolve to the same service and login \(http:\/\/localhost:\d+ and http:\/\/127\.0\.0\.1:\d+ both reach this machine/);
    expect(await emu.control.requests()).toEqual([]);
    expect(managed(await state(emu), 'e2e')).toEqual([]);
  });
});

describe('env_prefix: MONSYNC_', () => {
  it('does not quietly read the plain MONSYNC_URL and credentials: refused, naming the account, nothing sent', async () => {
    await repo('      env_prefix: MONSYNC_\n');
    await emu.control.clearRequests();
    const r = await cli(['apply', '--account', 'prod', '--auto-approve'], login('MONSYNC_', emu.url));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // The schema's refusal, at its line, as validate prints it (issue 45: before any request, whatever the prefix).
    expect(r.stderr).toMatch(/monsync\.yaml:\d+:\d+: env_prefix MONSYNC_ would read the plain MONSYNC_URL and credentials.*account prod's own variables/);
    expect(await emu.control.requests()).toEqual([]);
  });
});

describe('every account field is checked before the first request (issue 45)', () => {
  for (const prefix of ['""', 'monsync_', 'MONSYNC']) {
    it(`plan --all-accounts with env_prefix: ${prefix} under prod is refused as validate refuses it, with 0 requests on the emulator`, async () => {
      await repo(`      env_prefix: ${prefix}\n`);
      await emu.control.clearRequests();
      // The plain variables point at the emulator: the old order read the account with them first.
      const r = await cli(['plan', '--all-accounts'], { ...login('MONSYNC_', emu.url), ...login('MONSYNC_STAGING_', emu.url) });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toMatch(/settings\.accounts has a problem; nothing was sent/);
      expect(r.stderr).toMatch(/monsync\.yaml:\d+:\d+: env_prefix must match/);
      expect(await emu.control.requests()).toEqual([]);
    });
  }

  it('an unknown key under an account is refused the same way, before any request of apply --account', async () => {
    await repo('      env_prefx: KF_PROD_\n');
    await emu.control.clearRequests();
    const r = await cli(['apply', '--account', 'staging', '--auto-approve'], login('MONSYNC_STAGING_', emu.url));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/monsync\.yaml:\d+:\d+: .*env_prefx/);
    expect(await emu.control.requests()).toEqual([]);
  });
});

describe('the hint after plan --account NAME --out FILE', () => {
  it('is a command that works as printed', async () => {
    await repo();
    const env = { ...login('MONSYNC_STAGING_', emu.url), ...login('MONSYNC_PROD_', 'http://127.0.0.1:9') };
    const r = await cli(['plan', '--account', 'staging', '--out', 'staging.json'], env);
    expect(r.code, r.stderr).toBe(0);
    const hint = /`(monsync apply --plan [^`]*)` applies exactly this/.exec(r.stderr);
    expect(hint, r.stderr).not.toBeNull();
    const args = hint![1]!.split(' ').slice(1);
    const applied = await cli([...args, '--auto-approve'], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(managed(await state(emu), 'e2e').map((m) => m.label).sort()).toEqual(['mx-common', 'mx-staging']);
  });
});
