/**
 * `plan --all-accounts` reads and parses the files its accounts share once (issue 38): one parse
 * cache for the whole run, handed to every account's load; each account still gets the plan of
 * its own variables.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createParseCache, type ParseCache } from '../../src/config/parse-cache.js';
import { runPlan } from '../../src/cli/plan.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';

const made: ParseCache[] = [];
vi.mock('../../src/config/parse-cache.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/config/parse-cache.js')>();
  return {
    ...original,
    createParseCache: vi.fn(() => {
      const cache = original.createParseCache();
      made.push(cache);
      return cache;
    }),
  };
});

const ACCOUNTS = ['one', 'two', 'three'];
/** One emulator per account: two accounts of one run on one service and login are refused. */
const emus: TestEmulator[] = [];
let dir: string;

beforeAll(async () => {
  for (const _ of ACCOUNTS) emus.push(await startTestEmulator({ seed: 'empty' }));
  dir = mkdtempSync(join(tmpdir(), 'monsync-plan-accounts-cache-'));
  mkdirSync(join(dir, 'common'));
  const declared = ACCOUNTS.map((a, i) => `    ${a}:\n      paths: [common/]\n      vars: { REGION: r${i % 2} }\n`).join('');
  writeFileSync(join(dir, 'monsync.yaml'), `version: 1\nsettings:\n  owner: cache-test\n  accounts:\n${declared}defaults:\n  monitor:\n    time_zone: Europe/London\n    timer: 5\n    test_account: probe@example.com\n`);
  for (let f = 0; f < 4; f++) {
    const monitors = Array.from({ length: 5 }, (_, m) => `  - label: mx-${f}-${m}\n    ip_address: mx${m}.example.com\n`).join('');
    writeFileSync(join(dir, 'common', `f${f}.yaml`), `version: 1\nmonitors:\n${monitors}`);
  }
  writeFileSync(join(dir, 'common', 'regional.yaml'), 'version: 1\nmonitors:\n  - label: mx-${REGION}\n    ip_address: mx.${REGION}.example.com\n');
});
afterAll(async () => {
  for (const emu of emus) await emu.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('plan --all-accounts', () => {
  it('reads and parses each shared file once for all the accounts, and plans each with its own variables', async () => {
    const env: Record<string, string> = {};
    for (const [i, a] of ACCOUNTS.entries()) {
      const p = `MONSYNC_${a.toUpperCase()}_`;
      Object.assign(env, { [`${p}URL`]: emus[i]!.url, [`${p}USERNAME`]: DEFAULT_CREDENTIALS.v1.user, [`${p}PASSWORD`]: DEFAULT_CREDENTIALS.v1.password });
    }
    const io = captureIo(env, { cwd: process.cwd() });
    const code = await runPlan([relative(process.cwd(), join(dir, 'monsync.yaml'))], { allAccounts: true, format: 'json' }, io);
    expect(code, io.stderr).toBe(0);
    expect(vi.mocked(createParseCache)).toHaveBeenCalledTimes(1);
    // monsync.yaml and the 5 files of common/: 6 files for 3 accounts.
    expect(made[0]!.stats.reads).toBe(6);
    expect(made[0]!.stats.parses).toBe(6);
    expect(made[0]!.stats.resolutions).toBe(2);
    const out = JSON.parse(io.stdout) as { accounts: Array<{ account: string; plan: { changes: Array<{ key?: string; label?: string; desired?: { label?: string } }> } }> };
    const text = (i: number) => JSON.stringify(out.accounts[i]!.plan);
    expect(out.accounts.map((a) => a.account)).toEqual(ACCOUNTS);
    expect([text(0).includes('mx-r0'), text(0).includes('mx-r1'), text(1).includes('mx-r1'), text(1).includes('mx-r0')]).toEqual([true, false, true, false]);
  });
});
