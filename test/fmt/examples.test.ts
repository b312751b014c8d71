/**
 * fmt on real files: the messy fixture against its golden file, and every example of the
 * repository: nothing lost, nothing changed in what they mean, formatting twice changes nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDocument, visit } from 'yaml';
import { commentsOf } from '../../src/config/format/format.js';
import { formatted, loaded } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MESSY = path.join(ROOT, 'test/fixtures/fmt/messy.yaml');

/** Anchors and aliases as written, in document order. */
function refsOf(text: string): string[] {
  const out: string[] = [];
  visit(parseDocument(text), {
    Node(_k, node) {
      if ('anchor' in node && node.anchor) out.push(`&${node.anchor}`);
    },
    Alias(_k, node) {
      out.push(`*${node.source}`);
    },
  });
  return out.sort();
}

describe('the messy fixture', () => {
  const text = readFileSync(MESSY, 'utf8');

  it('formats into its golden file (test/fixtures/fmt/messy.formatted.yaml)', async () => {
    await expect(await formatted(text)).toMatchFileSnapshot('../fixtures/fmt/messy.formatted.yaml');
  });

  it('keeps every comment, anchor and alias, and loads into the same state', async () => {
    const out = await formatted(text);
    expect(commentsOf(out)).toEqual(commentsOf(text));
    expect(refsOf(out)).toEqual(refsOf(text));
    expect(refsOf(text).length).toBeGreaterThan(4);
    const before = await loaded({ 'monsync.yaml': text });
    expect(before).toHaveProperty('state');
    expect(await loaded({ 'monsync.yaml': out })).toEqual(before);
    // `${OWNER:-...}` is still read from the environment.
    expect(await loaded({ 'monsync.yaml': out }, { OWNER: 'x' })).toEqual(await loaded({ 'monsync.yaml': text }, { OWNER: 'x' }));
  });
});

const exampleDirs = ['examples/small', 'examples/realistic'];

describe.each(exampleDirs)('%s', (dir) => {
  const names = readdirSync(path.join(ROOT, dir)).filter((n) => /\.ya?ml$/.test(n)).sort();
  const texts = Object.fromEntries(names.map((n) => [n, readFileSync(path.join(ROOT, dir, n), 'utf8')]));

  it('loads into the same desired state once formatted', async () => {
    const out = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await formatted(texts[n]!)] as const)));
    const before = await loaded(texts);
    expect(before).toHaveProperty('state');
    expect(await loaded(out)).toEqual(before);
  });

  it.each(names)('%s keeps every comment, anchor and alias, its modeline on line 1, and formats once', async (name) => {
    const text = texts[name]!;
    const out = await formatted(text);
    expect(commentsOf(out)).toEqual(commentsOf(text));
    expect(refsOf(out)).toEqual(refsOf(text));
    expect(out.split('\n')[0]).toBe(text.split('\n')[0]);
    expect(out.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=/);
    expect(await formatted(out)).toBe(out);
  });
});
