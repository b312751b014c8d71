/**
 * How files that cannot be read, and files given by an absolute path, are named in messages: a
 * file that does not exist has no line 1, column 1 to point at, and `/srv/monitoring/a.yaml` given
 * on the command line is shown as given, not as `../../srv/monitoring/a.yaml` from the working directory.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnosticLines, formatDiagnostics, loadConfig } from '../../src/config/index.js';
import { diagnosticsOf, writeTree } from './helpers.js';

describe('files that cannot be read', () => {
  it('are reported as `file: message`, without a position in a file that is not there', async () => {
    const dir = await writeTree({ 'empty-dir/notes.txt': 'x', 'a.yaml': 'version: 1\n' });
    const result = await loadConfig(['missing.yaml', 'empty-dir'], { cwd: dir, env: {} });
    expect(formatDiagnosticLines(diagnosticsOf(result))).toEqual([
      'empty-dir: directory contains no .yaml, .yml or .json files',
      'missing.yaml: cannot read: no such file or directory',
    ]);
  });

  it('say so for a missing monsync.yaml too', async () => {
    const dir = await writeTree({ 'x.txt': '' });
    const lines = formatDiagnosticLines(diagnosticsOf(await loadConfig([], { cwd: dir, env: {} })));
    expect(lines).toEqual([`monsync.yaml: no configuration given and no monsync.yaml in ${dir}; pass config files or directories as arguments`]);
  });

  it('keep the position of a problem inside a file that was read', async () => {
    const dir = await writeTree({ 'a.yaml': 'version: 2\n' });
    expect(formatDiagnosticLines(diagnosticsOf(await loadConfig(['a.yaml'], { cwd: dir, env: {} })))[0]).toMatch(/^a\.yaml:1:10: /);
  });
});

describe('files given by an absolute path', () => {
  it('are shown by that path, outside the working directory, in every message', async () => {
    const dir = await writeTree({ 'srv/monitoring/a.yaml': 'version: 2\n', 'srv/monitoring/more/b.yaml': 'version: 2\n' });
    const cwd = path.join(dir, 'home', 'me');
    await mkdir(cwd, { recursive: true });
    const file = path.join(dir, 'srv', 'monitoring', 'a.yaml');
    const folder = path.join(dir, 'srv', 'monitoring', 'more');
    const missing = path.join(dir, 'srv', 'nothing.yaml');
    const result = diagnosticsOf(await loadConfig([file, folder, missing], { cwd, env: {} }));
    expect(result.map((d) => d.file).sort()).toEqual([file, path.join(folder, 'b.yaml'), missing].sort());
    // Also where the lines are made relative to the working directory (plan and apply do that).
    const text = formatDiagnostics(result, cwd);
    expect(text).not.toContain('..');
    expect(text).toContain(`${file}:1:10: `);
  });

  it('relative paths stay relative, as given', async () => {
    const dir = await writeTree({ 'conf/a.yaml': 'version: 2\n' });
    const cwd = path.join(dir, 'work');
    await mkdir(cwd, { recursive: true });
    const result = diagnosticsOf(await loadConfig(['../conf/a.yaml'], { cwd, env: {} }));
    expect(result.map((d) => d.file)).toEqual([path.join('..', 'conf', 'a.yaml')]);
  });
});
