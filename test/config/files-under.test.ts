/**
 * A directory of many files (one per monitor): each file's path below the directory is worked out
 * once while the tree is walked, for its place in the order and for its name in messages, and a
 * file the directory's listing shows to be regular is not asked about again (issue 38).
 */
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveInputs } from '../../src/config/read.js';
import { writeTree } from './helpers.js';

afterEach(() => vi.restoreAllMocks());

/** 200 files spread over nested directories, written in an order unlike the sorted one. */
function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 199; i >= 0; i--) files[`${['us', 'eu', 'ap'][i % 3]}/${i % 2 ? 'b/' : ''}m-${String(i).padStart(3, '0')}.yaml`] = 'version: 1\n';
  files['a.yaml'] = 'version: 1\n';
  return files;
}

describe('the files under a directory', () => {
  it('are sorted and named without working out each path relative to the directory again per comparison or per file', async () => {
    const dir = await writeTree(tree());
    const spy = vi.spyOn(path, 'relative');
    const { files } = await resolveInputs(['.'], dir);
    expect(files).toHaveLength(201);
    // A constant number of calls for the directory itself, none per file.
    expect(spy.mock.calls.length).toBeLessThan(5);
  });

  it('come in the documented order: a file before the directories beside it, then names in code-point order', async () => {
    const dir = await writeTree({ 'us/a.yaml': 'x', 'eu/b/c.yaml': 'x', 'eu/a.yaml': 'x', 'b.yaml': 'x', 'a.yaml': 'x', 'eu/z.yaml': 'x', 'B.yaml': 'x' });
    const { files } = await resolveInputs(['.'], dir);
    expect(files.map((f) => f.display)).toEqual(['B.yaml', 'a.yaml', 'b.yaml', path.join('eu', 'a.yaml'), path.join('eu', 'z.yaml'), path.join('eu', 'b', 'c.yaml'), path.join('us', 'a.yaml')]);
  });

  it('are named relative to the working directory as before, from inside it, beside it and by an absolute path outside it', async () => {
    const dir = await writeTree({ 'conf/x/a.yaml': 'x', 'work/sub/b.yaml': 'x' });
    const cwd = path.join(dir, 'work');
    const [inside, beside, absolute] = await Promise.all([
      resolveInputs(['sub'], cwd),
      resolveInputs(['../conf'], cwd),
      resolveInputs([path.join(dir, 'conf')], cwd),
    ]);
    expect(inside.files.map((f) => f.display)).toEqual([path.join('sub', 'b.yaml')]);
    expect(beside.files.map((f) => f.display)).toEqual([path.join('..', 'conf', 'x', 'a.yaml')]);
    expect(absolute.files.map((f) => f.display)).toEqual([path.join(dir, 'conf', 'x', 'a.yaml')]);
    expect((await resolveInputs(['.'], path.join(cwd, 'sub'))).files.map((f) => f.display)).toEqual(['b.yaml']);
  });

  it('are known to be regular from the listing, so reading them asks nothing more; a link to a file is still asked', async () => {
    const dir = await writeTree({ 'a.yaml': 'version: 1\n' });
    await mkdir(path.join(dir, 'more'));
    await symlink(path.join(dir, 'a.yaml'), path.join(dir, 'more', 'link.yaml'));
    const { files } = await resolveInputs(['.'], dir);
    expect(files.map((f) => [f.display, f.regular ?? false])).toEqual([
      ['a.yaml', true],
      [path.join('more', 'link.yaml'), false],
    ]);
  });
});
