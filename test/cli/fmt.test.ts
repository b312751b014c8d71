/** `monsync fmt`: in process through runFmt, and as the real built binary. */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch } from 'diff';
import { beforeAll, describe, expect, it } from 'vitest';
import { runFmt, type FmtOptions } from '../../src/cli/fmt.js';
import { BIN, ROOT, buildCli } from '../helpers/cli.js';
import { captureIo, lines } from '../helpers/io.js';
import { writeTree } from '../config/helpers.js';

const MESSY = 'monitors: []\nversion: 1\n';
const TIDY = 'version: 1\nmonitors: []\n';
const BROKEN = 'version: 1\nmonitors: [a, b\ngroups: []\n';

async function fmt(dir: string, paths: string[], opts: FmtOptions = {}) {
  const io = captureIo({}, { cwd: dir });
  const code = await runFmt(paths, opts, io);
  return { code, out: io.stdout, err: lines(io.stderr) };
}

const read = (dir: string, name: string) => readFile(path.join(dir, name), 'utf8');

describe('monsync fmt', () => {
  it('rewrites the files that are not formatted, lists them, and leaves the others byte for byte', async () => {
    const dir = await writeTree({ 'a.yaml': MESSY, 'b.yml': TIDY, 'notes.txt': MESSY });
    const before = await stat(path.join(dir, 'b.yml'));
    expect(await fmt(dir, ['.'])).toEqual({ code: 0, out: 'a.yaml\n', err: [] });
    expect(await read(dir, 'a.yaml')).toBe(TIDY);
    expect(await read(dir, 'b.yml')).toBe(TIDY);
    expect((await stat(path.join(dir, 'b.yml'))).mtimeMs).toBe(before.mtimeMs);
    expect(await read(dir, 'notes.txt')).toBe(MESSY);
    // A second run has nothing to do.
    expect(await fmt(dir, ['.'])).toEqual({ code: 0, out: '', err: [] });
  });

  it('takes a directory with the directories below it: `fmt --check examples/` checks every example and recipe', async () => {
    const dir = await writeTree({ 'conf/a.yaml': TIDY, 'conf/eu/b.yaml': MESSY, 'conf/eu/deep/c.yml': MESSY });
    expect(await fmt(dir, ['conf'], { check: true })).toEqual({
      code: 1,
      out: `${path.join('conf', 'eu', 'b.yaml')}\n${path.join('conf', 'eu', 'deep', 'c.yml')}\n`,
      err: ['2 files not formatted; `monsync fmt` rewrites them.'],
    });
    expect(await fmt(ROOT, ['examples/'], { check: true })).toEqual({ code: 0, out: '', err: [] });
  });

  it('reads monsync.yaml when no path is given, like validate and plan', async () => {
    const dir = await writeTree({ 'monsync.yaml': MESSY });
    expect(await fmt(dir, [])).toEqual({ code: 0, out: 'monsync.yaml\n', err: [] });
    expect(await read(dir, 'monsync.yaml')).toBe(TIDY);
    const empty = await writeTree({});
    const r = await fmt(empty, []);
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^monsync\.yaml: no configuration given and no monsync\.yaml in /);
  });

  it('--check writes nothing, lists the files that would change and exits 1; exits 0 once all are formatted', async () => {
    const dir = await writeTree({ 'a.yaml': MESSY, 'b.yaml': TIDY, 'c.yaml': MESSY });
    expect(await fmt(dir, ['.'], { check: true })).toEqual({
      code: 1,
      out: 'a.yaml\nc.yaml\n',
      err: ['2 files not formatted; `monsync fmt` rewrites them.'],
    });
    expect(await read(dir, 'a.yaml')).toBe(MESSY);
    expect(await fmt(dir, ['b.yaml'], { check: true })).toEqual({ code: 0, out: '', err: [] });
  });

  it('--diff prints a unified diff that turns the file into its formatted form, and writes nothing', async () => {
    const dir = await writeTree({ 'sub/a.yaml': MESSY });
    const r = await fmt(dir, ['sub'], { diff: true });
    expect(r.code).toBe(0);
    expect(r.out.split('\n').slice(0, 3)).toEqual(['--- a/sub/a.yaml', '+++ b/sub/a.yaml', '@@ -1,2 +1,2 @@']);
    expect(applyPatch(MESSY, r.out)).toBe(TIDY);
    expect(await read(dir, 'sub/a.yaml')).toBe(MESSY);
  });

  it('--check --diff prints the diff and exits 1, as `terraform fmt -check -diff` does', async () => {
    const dir = await writeTree({ 'a.yaml': MESSY });
    const r = await fmt(dir, ['a.yaml'], { check: true, diff: true });
    expect(r.code).toBe(1);
    expect(r.out).toContain('+++ b/a.yaml');
    expect(await read(dir, 'a.yaml')).toBe(MESSY);
  });

  it('reports a file with a YAML syntax error at file:line:column, leaves it alone, formats the others, exits 1', async () => {
    const dir = await writeTree({ 'a.yaml': MESSY, 'bad.yaml': BROKEN });
    expect(await fmt(dir, ['.'])).toEqual({
      code: 1,
      out: 'a.yaml\n',
      err: ['bad.yaml:3:1: flow sequence in block collection must be sufficiently indented and end with a ]'],
    });
    expect(await read(dir, 'bad.yaml')).toBe(BROKEN);
    expect(await read(dir, 'a.yaml')).toBe(TIDY);
  });

  it('keeps a byte-order mark, the file mode and a symbolic link', async () => {
    const dir = await writeTree({ 'bom.yaml': `\ufeff${MESSY}`, 'real/target.yaml': MESSY });
    await chmod(path.join(dir, 'real/target.yaml'), 0o640);
    await symlink(path.join(dir, 'real/target.yaml'), path.join(dir, 'link.yaml'));
    expect(await fmt(dir, ['bom.yaml', 'link.yaml'])).toEqual({ code: 0, out: 'bom.yaml\nlink.yaml\n', err: [] });
    expect(await readFile(path.join(dir, 'bom.yaml'))).toEqual(Buffer.from(`\ufeff${TIDY}`));
    expect(await read(dir, 'real/target.yaml')).toBe(TIDY);
    expect((await stat(path.join(dir, 'real/target.yaml'))).mode & 0o777).toBe(0o640);
    expect((await import('node:fs')).lstatSync(path.join(dir, 'link.yaml')).isSymbolicLink()).toBe(true);
  });

  it('reports a file it cannot write, leaves it as it was, and goes on with the others', async () => {
    const dir = await writeTree({ 'a.yaml': MESSY, 'b.yaml': MESSY });
    // The temporary file's name taken by a directory: the write fails for every user, root included.
    await mkdir(path.join(dir, `.a.yaml.${process.pid}.fmt.tmp`));
    const r = await fmt(dir, ['a.yaml', 'b.yaml']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('b.yaml\n');
    expect(r.err).toEqual([expect.stringMatching(/^a\.yaml:1:1: cannot write the formatted file: /)]);
    expect(await read(dir, 'a.yaml')).toBe(MESSY);
    expect(await read(dir, 'b.yaml')).toBe(TIDY);
  });
});

describe('monsync fmt (built binary)', () => {
  beforeAll(() => buildCli(), 300_000);

  function monsync(args: string[], cwd: string) {
    return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  }

  it('explains itself with an example in --help', () => {
    const r = monsync(['fmt', '--help'], process.cwd());
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: monsync fmt [options] [paths...]');
    expect(r.stdout).toContain('--check');
    expect(r.stdout).toContain('--diff');
    expect(r.stdout).toMatch(/Examples:\n\s+\$ monsync fmt /);
  });

  it('exits 1 for --check on an unformatted file and for a syntax error, without a stack trace', async () => {
    const dir = await writeTree({ 'a.yaml': MESSY, 'bad.yaml': BROKEN });
    const r = monsync(['fmt', '--check', '.'], dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('a.yaml\n');
    expect(r.stderr).toBe(
      'bad.yaml:3:1: flow sequence in block collection must be sufficiently indented and end with a ]\n1 file not formatted; `monsync fmt` rewrites it.\n',
    );
    await writeFile(path.join(dir, 'bad.yaml'), TIDY);
    expect(monsync(['fmt', '.'], dir).status).toBe(0);
    expect(monsync(['fmt', '--check', '.'], dir)).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });
});
