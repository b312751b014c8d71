/**
 * Inputs meant to hurt: each must end in a clear diagnostic at a useful position, quickly, without
 * throwing and without touching Object.prototype.
 */
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig, MAX_FILE_BYTES } from '../../src/config/index.js';
import { firstInvalidUtf8 } from '../../src/config/read.js';
import { aliasBombText } from '../bench/workloads.js';
import { brief, diagnosticsOf, loadFiles, stateOf, writeTree } from './helpers.js';

/** The limit until issue 23: 5 MB. */
const MAX_FILE_BYTES_BEFORE = 5 * 1024 * 1024;

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

async function only(files: Record<string, string | Uint8Array>) {
  const d = diagnosticsOf(await loadFiles(files)).map(brief);
  expect(d).toHaveLength(1);
  return d[0]!;
}

describe('hostile inputs', () => {
  it('refuses a file over 64 MB without parsing it', async () => {
    const line = '# padding padding padding padding padding padding padding padding padding\n';
    const big = 'version: 1\n' + line.repeat(Math.ceil(MAX_FILE_BYTES / line.length));
    expect(Buffer.byteLength(big)).toBeGreaterThan(MAX_FILE_BYTES);
    expect(await only({ 'big.yaml': big })).toEqual({
      file: 'big.yaml',
      line: 0,
      column: 0,
      message: `file is too large (${Buffer.byteLength(big)} bytes; the limit is 67108864 bytes, 64 MB)`,
    });
  });

  it('accepts a file of exactly 64 MB', async () => {
    const head = 'version: 1\n#';
    const exact = head + 'x'.repeat(MAX_FILE_BYTES - head.length - 1) + '\n';
    expect(Buffer.byteLength(exact)).toBe(MAX_FILE_BYTES);
    expect(stateOf(await loadFiles({ 'exact.yaml': exact })).files).toEqual(['exact.yaml']);
  });

  // Issue 23, item 6: the 5 MB limit refused a 10,000-monitor JSON inventory (6.9 MB) that loadConfig
  // accepts in memory. The limit fits the largest accounts README speaks of: 50,000 monitors as one
  // pretty-printed JSON file are about 35 MB.
  it('reads a 10,000-monitor pretty-printed JSON inventory of about 7 MB from a file', async () => {
    const monitors = Array.from({ length: 10_000 }, (_, i) => ({
      label: `mx-${String(i).padStart(5, '0')}`,
      ip_address: `mx-${i}.mail.example.com`,
      test_account: 'probe@example.com',
      timer: 5,
      time_zone: 'Europe/Berlin',
      meta: { region: 'eu', site: `site-${i % 40}` },
      port: 25,
      use_tls: 'auto',
      custom_subject: `[mx-${i}]`,
      alerts: [
        { subject_init: `mx-${i} is DOWN`, subject_term: `mx-${i} is UP`, timeout: 15, alert_destinations: [] },
        { subject_init: `mx-${i} has been down for an hour`, subject_term: `mx-${i} recovered`, timeout: 60, alert_destinations: [], down_only: true },
      ],
    }));
    const text = `${JSON.stringify({ version: 1, settings: { owner: 'mail-team' }, monitors }, null, 2)}\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_FILE_BYTES_BEFORE);
    expect(stateOf(await loadFiles({ 'inventory.json': text })).monitors).toHaveLength(10_000);
  }, 60_000);

  it('stops an alias bomb (billion laughs) with one diagnostic', async () => {
    // The bound on work is counted in aliases.test.ts; its time is test/bench/in-process.bench.ts's (issue 34).
    const d = await only({ 'bomb.yaml': aliasBombText() });
    // &f expands to 597,871 values: with the 672,000 written before, &g's list passes the budget at its third *f.
    expect(d).toEqual({
      file: 'bomb.yaml',
      line: 8,
      column: 16,
      message: 'aliases expand this file to over 2,000,000 values (the limit): refusing a possible "billion laughs" document; the limit was passed here',
    });
  });

  it('reports duplicate keys with both places', async () => {
    expect(await only({ 'dup.yaml': 'version: 1\nsettings:\n  owner: a\n  prune: true\n  owner: b\n' })).toEqual({
      file: 'dup.yaml',
      line: 5,
      column: 3,
      message: 'duplicate key "owner": it is already defined at line 3, column 3',
    });
  });

  it('reports tabs used for indentation', async () => {
    expect(await only({ 'tabs.yaml': 'version: 1\ngroups:\n  - name: a\n\t  monitors: []\n' })).toEqual({
      file: 'tabs.yaml',
      line: 4,
      column: 1,
      message: 'tab character used for indentation; YAML indentation must use spaces',
    });
  });

  it('reports bytes that are not UTF-8 at their position', async () => {
    expect(await only({ 'latin1.yaml': bytes('version: 1\nsettings:\n  owner: caf', [0xe9], '\n') })).toEqual({
      file: 'latin1.yaml',
      line: 3,
      column: 13,
      message: 'file is not valid UTF-8 (byte 0xe9 at offset 33); save it as UTF-8',
    });
  });

  it.each([
    ['an overlong encoding', [0xc0, 0xaf]],
    ['a UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('rejects %s', async (_name, seq) => {
    const d = await only({ 'bad.yaml': bytes('version: 1\n# ', seq, '\n') });
    expect(d).toMatchObject({ line: 2, column: 3 });
    expect(d.message).toMatch(/^file is not valid UTF-8 \(byte 0x[0-9a-f]{2} at offset 13\); save it as UTF-8$/);
  });

  it('takes the native UTF-8 check as the answer of firstInvalidUtf8, which only locates the bad byte', () => {
    // Bytes around the boundaries of every sequence length, so most samples are near-misses.
    const byte = fc.oneof(
      fc.integer({ min: 0x20, max: 0x7f }),
      fc.constantFrom(0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff),
      fc.integer({ min: 0x80, max: 0xff }),
    );
    const sequences = fc.array(fc.oneof(fc.array(byte, { maxLength: 4 }), fc.string({ unit: 'binary' }).map((t) => [...Buffer.from(t)])), {
      maxLength: 8,
    });
    let valid = 0;
    fc.assert(
      fc.property(sequences, (parts) => {
        const buf = Uint8Array.from(parts.flat());
        if (isUtf8(buf)) valid++;
        expect(firstInvalidUtf8(buf) < 0).toBe(isUtf8(buf));
      }),
      { numRuns: 20000 },
    );
    expect(valid).toBeGreaterThan(1000);
  });

  it('accepts multi-byte UTF-8 and a byte-order mark, counting columns in characters', async () => {
    const result = await loadFiles({
      'utf8.yaml': bytes([0xef, 0xbb, 0xbf], 'version: 1\nsettings:\n  owner: "équipe-🙂"\n  prune: "no"\n'),
    });
    expect(diagnosticsOf(result).map(brief)).toEqual([
      { file: 'utf8.yaml', line: 4, column: 10, message: 'prune must be true or false (got the text "no"); YAML 1.2 booleans are true and false' },
    ]);
  });

  it('refuses a binary file', async () => {
    const png = bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d], 'IHDR');
    expect(await only({ 'logo.yaml': png })).toMatchObject({
      file: 'logo.yaml',
      message: 'file looks binary (it contains a NUL byte); configuration files are UTF-8 text',
    });
  });

  it('refuses UTF-16 text', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('version: 1\n', 'utf16le')]);
    expect(await only({ 'wide.yaml': utf16 })).toEqual({
      file: 'wide.yaml',
      line: 1,
      column: 1,
      message: 'file is encoded as UTF-16; save it as UTF-8',
    });
  });

  it.each([
    ['an empty file', ''],
    ['a file of blank lines', '\n  \n\n'],
  ])('refuses %s', async (_name, text) => {
    expect(await only({ 'empty.yaml': text })).toEqual({
      file: 'empty.yaml',
      line: 1,
      column: 1,
      message: 'file is empty; a configuration file starts with "version: 1"',
    });
  });

  it('refuses something that is not a regular file', async () => {
    const dir = await writeTree({});
    const d = diagnosticsOf(await loadConfig(['/dev/null'], { cwd: dir, env: {} })).map(brief);
    expect(d).toEqual([{ file: '/dev/null', line: 0, column: 0, message: 'not a regular file' }]);
  });

  it.each([
    ['a list', '- version: 1\n', 'the top level must be a mapping with keys such as version, monitors and groups, not a list'],
    ['a scalar', '42\n', 'the top level must be a mapping with keys such as version, monitors and groups, not a single value'],
  ])('refuses %s at the top level', async (_name, text, message) => {
    expect(await only({ 'top.yaml': text })).toEqual({ file: 'top.yaml', line: 1, column: 1, message });
  });

  it('rejects __proto__ and constructor keys wherever they are, leaving Object.prototype alone', async () => {
    const yaml = [
      'version: 1',
      'monitors:',
      '  - label: m',
      '    meta:',
      '      __proto__: { polluted: "yes" }',
      'x-a:',
      '  constructor: { prototype: { polluted: "yes" } }',
      'groups: [{ name: g, "__proto__": x }]',
      '',
    ].join('\n');
    const d = diagnosticsOf(await loadFiles({ 'proto.yaml': yaml })).map(brief);
    const reserved = (key: string) => `key "${key}" is not allowed (it is reserved by JavaScript objects)`;
    expect(d).toEqual([
      { file: 'proto.yaml', line: 5, column: 7, message: reserved('__proto__') },
      { file: 'proto.yaml', line: 7, column: 3, message: reserved('constructor') },
      { file: 'proto.yaml', line: 8, column: 21, message: reserved('__proto__') },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses absurd nesting without overflowing the stack', async () => {
    const d = await only({ 'deep.yaml': `version: 1\nx-deep: ${'['.repeat(5000)}${']'.repeat(5000)}\n` });
    expect(d).toMatchObject({ file: 'deep.yaml', line: 2, message: 'nesting is too deep (the limit is 64 levels)' });
  });

  it('shows only the first few of a cascade of syntax errors', async () => {
    const d = diagnosticsOf(await loadFiles({ 'junk.yaml': 'version: 1\n' + 'a: [\n: } ] "\n'.repeat(20) }));
    expect(d.length).toBeLessThanOrEqual(11);
    expect(d.at(-1)!.message).toMatch(/^\d+ more YAML syntax errors not shown$/);
  });
});
