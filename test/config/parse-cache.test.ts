/**
 * Loads of the same files for several accounts share one parse cache (issue 38): each file is read
 * and parsed once however many accounts load it; only what its `${VAR}`s change is worked out per
 * account; and every account's result is exactly the one a load without the cache gives.
 */
import { describe, expect, it } from 'vitest';
import { createParseCache, loadConfig, type LoadOptions } from '../../src/config/index.js';
import { monitorYaml, stateOf, writeTree } from './helpers.js';

/** 16 accounts' worth: a declaring file, two shared files (one plain, one using ${REGION}), one own file each. */
async function accountsTree(): Promise<{ dir: string; accounts: Array<{ paths: string[]; env: Record<string, string> }> }> {
  const files: Record<string, string> = {
    'monsync.yaml': 'version: 1\nsettings:\n  owner: team\ndefaults:\n  monitor:\n    timer: 10\n',
    'common/plain.yaml': `version: 1\nmonitors:\n${monitorYaml('shared-1')}${monitorYaml('shared-2')}`,
    'common/regional.yaml': 'version: 1\nmonitors:\n  - label: regional-${REGION}\n    ip_address: mx.${REGION}.example.com\n    test_account: probe@example.com\n    time_zone: Europe/London\n',
  };
  const accounts = [];
  for (let i = 0; i < 16; i++) {
    files[`own/a${i}.yaml`] = `version: 1\nmonitors:\n${monitorYaml(`own-${i}`)}`;
    // Four regions over 16 accounts: the regional file has four distinct results.
    accounts.push({ paths: ['monsync.yaml', 'common', `own/a${i}.yaml`], env: { REGION: `r${i % 4}` } });
  }
  return { dir: await writeTree(files), accounts };
}

describe('a parse cache shared by the loads of several accounts', () => {
  it('reads and parses each shared file once, and works out a file with ${VAR} once per set of values', async () => {
    const { dir, accounts } = await accountsTree();
    const cache = createParseCache();
    for (const a of accounts) stateOf(await loadConfig(a.paths, { cwd: dir, env: a.env, cache }));
    // 3 shared files and 16 own ones: 19 files in all, whatever the number of accounts.
    expect(cache.stats.reads).toBe(19);
    expect(cache.stats.parses).toBe(19);
    // The regional file goes the full path (${...}); four regions, four resolutions.
    expect(cache.stats.resolutions).toBe(4);
    expect(cache.stats.reused).toBe(2 * 3 * 15);
  });

  it('gives each account exactly the state and warnings a load without the cache gives', async () => {
    const { dir, accounts } = await accountsTree();
    const cache = createParseCache();
    for (const a of accounts) {
      const opts: LoadOptions = { cwd: dir, env: a.env };
      const alone = await loadConfig(a.paths, opts);
      const cached = await loadConfig(a.paths, { ...opts, cache });
      expect(cached).toEqual(alone);
      expect(stateOf(cached).monitors.map((m) => m.label)).toContain(`regional-${a.env.REGION}`);
    }
  });

  it('gives each account its own problems with ${VAR}, in loads that overlap', async () => {
    const { dir, accounts } = await accountsTree();
    const cache = createParseCache();
    const envs = [{ REGION: 'eu' }, {}, { REGION: 'us' }, {}];
    const results = await Promise.all(envs.map((env) => loadConfig(accounts[0]!.paths, { cwd: dir, env, cache })));
    const alone = await Promise.all(envs.map((env) => loadConfig(accounts[0]!.paths, { cwd: dir, env })));
    expect(results).toEqual(alone);
    expect(results.map((r) => 'state' in r)).toEqual([true, false, true, false]);
    expect(cache.stats.parses).toBe(4);
    expect(cache.stats.resolutions).toBe(3);
  });

  it('does not keep configurations given in memory, which may be another text under the same name next time', async () => {
    const cache = createParseCache();
    const one = await loadConfig([{ name: 'a.yaml', text: `version: 1\nmonitors:\n${monitorYaml('first')}` }], { env: {}, cache });
    const two = await loadConfig([{ name: 'a.yaml', text: `version: 1\nmonitors:\n${monitorYaml('second')}` }], { env: {}, cache });
    expect([stateOf(one).monitors[0]!.label, stateOf(two).monitors[0]!.label]).toEqual(['first', 'second']);
  });
});
