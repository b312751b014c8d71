/** `monsync fmt` and JSON configuration files: a directory's JSON files are left alone; a JSON file named is refused. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFmt, type FmtOptions } from '../../src/cli/fmt.js';
import { captureIo, lines } from '../helpers/io.js';
import { writeTree } from '../config/helpers.js';

const MESSY = 'monitors: []\nversion: 1\n';
const TIDY = 'version: 1\nmonitors: []\n';
/** Valid, and far from any canonical layout a formatter would choose. */
const JSON_TEXT = '{"monitors":[],   "version":1}';

async function fmt(dir: string, paths: string[], opts: FmtOptions = {}) {
  const io = captureIo({}, { cwd: dir });
  const code = await runFmt(paths, opts, io);
  return { code, out: io.stdout, err: lines(io.stderr) };
}

describe('monsync fmt and JSON configuration files', () => {
  it('formats the YAML files of a directory and leaves its JSON files byte for byte, without a word', async () => {
    const dir = await writeTree({ 'a.yaml': MESSY, 'b.json': JSON_TEXT });
    expect(await fmt(dir, ['.'])).toEqual({ code: 0, out: 'a.yaml\n', err: [] });
    expect(await fmt(dir, ['.'], { check: true })).toEqual({ code: 0, out: '', err: [] });
    expect(await readFile(path.join(dir, 'b.json'), 'utf8')).toBe(JSON_TEXT);
    expect(await readFile(path.join(dir, 'a.yaml'), 'utf8')).toBe(TIDY);
  });

  it('refuses a JSON file named on the command line, writes nothing to it, and still formats the rest', async () => {
    const dir = await writeTree({ 'a.yaml': MESSY, 'b.json': JSON_TEXT });
    expect(await fmt(dir, ['b.json', 'a.yaml'])).toEqual({
      code: 1,
      out: 'a.yaml\n',
      err: ['b.json:1:1: fmt formats YAML files only; a JSON file is left as the program that writes it wrote it'],
    });
    expect(await readFile(path.join(dir, 'b.json'), 'utf8')).toBe(JSON_TEXT);
  });

  it('a directory of JSON files alone has nothing to format: it says so', async () => {
    const dir = await writeTree({ 'gen/b.json': JSON_TEXT });
    expect(await fmt(dir, ['gen'])).toEqual({ code: 1, out: '', err: ['gen: directory contains no .yaml or .yml files'] });
  });
});
