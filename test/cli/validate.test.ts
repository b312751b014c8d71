/** `monsync validate`: in process through runValidate, and as the real built binary. */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/validate.js';
import { BIN, buildCli } from '../helpers/cli.js';
import { captureIo, lines } from '../helpers/io.js';
import { writeTree } from '../config/helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function run(paths: string[], cwd = root) {
  const io = captureIo({}, { cwd });
  const code = await runValidate(paths, {}, io);
  return { code, out: lines(io.stdout), err: lines(io.stderr) };
}

describe('runValidate', () => {
  it('prints one summary line for a valid configuration', async () => {
    expect(await run(['examples/realistic'])).toEqual({
      code: 0,
      out: ['Valid: 4 files, 8 monitors, 10 alerts, 4 groups.'],
      // The one finding of the checks the example keeps on purpose (see its comment).
      err: ['examples/realistic/americas.yaml:51:5: warning alert/missing: monitor "submission-us" has no alert; nobody is told when it fails'],
    });
    expect((await run(['examples/small/monsync.yaml'])).out).toEqual(['Valid: 1 file, 2 monitors, 2 alerts, 0 groups.']);
  });

  it('refuses an account whose env_prefix is the plain MONSYNC_, offline, at its line and column', async () => {
    const dir = await writeTree({
      'monsync.yaml': 'version: 1\nsettings:\n  owner: team\n  accounts:\n    prod:\n      paths: [prod.yaml]\n      env_prefix: MONSYNC_\n',
      'prod.yaml': 'version: 1\nmonitors: []\n',
    });
    const { code, out, err } = await run(['monsync.yaml'], dir);
    expect(code).toBe(1);
    expect(out).toEqual(['Account prod:']);
    expect(err).toEqual([
      "monsync.yaml:7:19: env_prefix MONSYNC_ would read the plain MONSYNC_URL and credentials, which a declared account never uses (docs/accounts.md): remove env_prefix (account prod's own variables are MONSYNC_PROD_URL ...) or choose another prefix",
      'Invalid: 1 error in 1 file.',
    ]);
  });

  it('prints every diagnostic and a count for an invalid one', async () => {
    const dir = await writeTree({
      'a.yaml': 'version: 1\nsettings:\n  prun: true\n',
      'b.yaml': 'version: 1\nmonitors:\n  - label: m\n    use_tls: yes\n',
    });
    const { code, out, err } = await run([dir], dir);
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([
      'a.yaml:3:3: unknown key "prun" in settings; did you mean "prune"?',
      'b.yaml:3:5: monitor "m" has no ip_address, test_account, timer or time_zone: set them here or in defaults.monitor',
      'b.yaml:4:14: use_tls must be one of off, on, auto (got the text "yes")',
      'Invalid: 3 errors in 2 files.',
    ]);
  });

  it('reports schema, semantic and cross-file problems together, in one run (a bad timer, a misspelt key, an unknown time zone, a duplicate label, a missing ip_address)', async () => {
    const dir = await writeTree({
      'monsync.yaml': [
        'version: 1',
        'defaults:',
        '  monitor: { time_zone: Europe/London, timer: 5, test_account: p@example.com }',
        'monitors:',
        '  - label: a',
        '    ip_address: mx.example.com',
        '    timer: 7',
        '  - label: c',
        '    ip_address: mx.example.com',
        '    time_zone: Europe/Londn',
        '  - label: d',
        '    ip_adress: mx.example.com',
        '',
      ].join('\n'),
      'more.yaml': ['version: 1', 'monitors:', '  - label: a', '    ip_address: mx2.example.com', '  - label: e', ''].join('\n'),
    });
    const { code, err } = await run([dir], dir);
    expect(code).toBe(1);
    expect(err).toEqual([
      'monsync.yaml:7:12: timer must be one of 3, 5, 10, 15, 20, 30 minutes (got the number 7)',
      'monsync.yaml:10:16: unknown time zone "Europe/Londn"; did you mean "Europe/London"?',
      'monsync.yaml:11:5: monitor "d" has no ip_address: set it here or in defaults.monitor',
      'monsync.yaml:12:5: unknown key "ip_adress" in monitor; did you mean "ip_address"?',
      'more.yaml:3:12: monitor label "a" is already defined at monsync.yaml:5:12',
      'more.yaml:5:5: monitor "e" has no ip_address: set it here or in defaults.monitor',
      'Invalid: 6 errors in 2 files.',
    ]);
  });

  it('prints warnings but stays valid', async () => {
    const dir = await writeTree({ 'monsync.yaml': 'version: 1\ngroups:\n  - { name: g, previous_names: [g] }\n' });
    const { code, out, err } = await run([], dir);
    expect(code).toBe(0);
    expect(err).toEqual(['monsync.yaml:3:33: warning: previous name "g" is the group\'s current name; remove it']);
    expect(out).toEqual(['Valid: 1 file, 0 monitors, 0 alerts, 1 group.']);
  });

  it('counts maintenance windows when the configuration declares some', async () => {
    const dir = await writeTree({
      'monsync.yaml': 'version: 1\ngroups:\n  - { name: g }\nmaintenance:\n  - { name: w, groups: [g], cron: "0 2 * * 2", duration: 1h, time_zone: UTC }\n',
    });
    const { code, out, err } = await run([], dir);
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out).toEqual(['Valid: 1 file, 0 monitors, 0 alerts, 1 group, 1 maintenance window.']);
  });
});

describe('monsync validate (built binary)', () => {
  // The shared once-per-sources build into a private package (test/helpers/cli.ts), not dist/.
  beforeAll(() => buildCli(), 300_000);

  function monsync(args: string[], cwd: string) {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(r.stderr).not.toContain('    at ');
    return r;
  }

  it('exits 0 with the summary for the examples', () => {
    const r = monsync(['validate', 'examples/realistic'], root);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Valid: 4 files, 8 monitors, 10 alerts, 4 groups.\n');
    expect(r.stderr).toBe('examples/realistic/americas.yaml:51:5: warning alert/missing: monitor "submission-us" has no alert; nobody is told when it fails\n');
  });

  it('reads plain YAML without loading the YAML library (the fast reader needs none), and loads it for anchors', async () => {
    const monitor = '  - label: mx-1\n    timer: 5\n    time_zone: UTC\n    ip_address: mx.example.com\n    test_account: probe@example.com\n';
    const dir = await writeTree({
      'plain.yaml': `version: 1\nmonitors:\n${monitor}`,
      'anchors.yaml': `version: 1\nx-tz: &tz UTC\nmonitors:\n${monitor.replace('time_zone: UTC', 'time_zone: *tz')}`,
    });
    const preload = path.join(root, 'test/helpers/yaml-loaded.cjs');
    const run = (file: string) => spawnSync(process.execPath, ['-r', preload, BIN, 'validate', file], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    const plain = run('plain.yaml');
    expect(plain.stdout, plain.stderr).toBe('Valid: 1 file, 1 monitor, 0 alerts, 0 groups.\n');
    expect(plain.stderr).toContain('yaml library: not loaded');
    // An alias is the full YAML path's to resolve: that one loads it.
    const anchored = run('anchors.yaml');
    expect(anchored.stdout, anchored.stderr).toBe('Valid: 1 file, 1 monitor, 0 alerts, 0 groups.\n');
    expect(anchored.stderr).toContain('yaml library: loaded');
  });

  it('exits 1 with diagnostics for the whole bad corpus, one file at a time', () => {
    const r = monsync(['validate', 'test/fixtures/bad'], root);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^Invalid: \d+ errors in \d+ files\.$/);
    expect(lines.slice(0, -1).every((l) => /^test\/fixtures\/bad\/[\w-]+\.yaml:\d+:\d+: /.test(l))).toBe(true);
  });

  it('exits 1 with a clear message when there is no monsync.yaml', async () => {
    const dir = await writeTree({});
    const r = monsync(['validate'], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('monsync.yaml: no configuration given and no monsync.yaml in');
  });

  it('exits 1 on hostile files without a stack trace', async () => {
    const dir = await writeTree({});
    await writeFile(path.join(dir, 'bin.yaml'), Buffer.from([0x00, 0xff, 0x10]));
    await writeFile(path.join(dir, 'deep.yaml'), `version: 1\nx-a: ${'['.repeat(20000)}\n`);
    const r = monsync(['validate', 'bin.yaml', 'deep.yaml'], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bin.yaml:1:1: file looks binary');
    expect(r.stderr).toContain('deep.yaml:');
  });
});
