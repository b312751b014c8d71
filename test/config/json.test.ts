/**
 * JSON configuration files: strict JSON, loaded exactly like YAML. The JSON scanner's own reading
 * (src/config/json.ts) either hands a file to the full path or gives exactly what the full path
 * gives for it: the same data, and the same position for every path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { interpolateDocument } from '../../src/config/interpolate.js';
import { scanJson } from '../../src/config/json.js';
import { parseSource, toPlainData } from '../../src/config/parse.js';
import type { DesiredState } from '../../src/model/desired.js';
import { brief, diagnosticsOf, loadFiles, paths, stateOf } from './helpers.js';

const root = path.join(import.meta.dirname, '..', '..');

/** True when the scanner read the text itself; fails the test when it differs from the full path. */
function same(text: string): boolean {
  const scan = scanJson(text, 'f.json');
  expect('diagnostic' in scan ? scan.diagnostic : undefined, text).toBeUndefined();
  if ('diagnostic' in scan || !scan.positions) return false;
  const { parsed, diagnostics } = parseSource({ path: 'f.json', display: 'f.json', text: scan.text });
  expect(diagnostics, text).toEqual([]);
  expect(interpolateDocument(parsed!, {}).diagnostics, text).toEqual([]);
  const { data } = toPlainData(parsed!);
  expect(scan.data, text).toStrictEqual(data);
  for (const p of paths(data)) {
    expect(scan.positions.value(p), `${text}\nvalue ${JSON.stringify(p)}`).toEqual(parsed!.locator.value(p));
    expect(scan.positions.key(p), `${text}\nkey ${JSON.stringify(p)}`).toEqual(parsed!.locator.key(p));
  }
  return true;
}

/** What the examples' YAML holds, as a generator would write it: JSON.stringify of the loaded data. */
function toJson(yamlText: string, space: string | number = 2): string {
  return `${JSON.stringify(parse(yamlText, { merge: true }), null, space)}\n`;
}

/** The state without where things were written (file names and lines differ between YAML and JSON). */
function withoutSources(state: DesiredState): unknown {
  return JSON.parse(JSON.stringify({ ...state, files: [] }, (k, v: unknown) => (k === 'source' ? undefined : v)));
}

/** Directories of examples/ holding configuration files (the CI recipes are not configurations). */
function exampleConfigs(): { name: string; files: Record<string, string> }[] {
  const out: { name: string; files: Record<string, string> }[] = [];
  for (const dir of readdirSync(path.join(root, 'examples'), { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    const files: Record<string, string> = {};
    for (const name of readdirSync(path.join(root, 'examples', dir.name)).sort()) {
      if (!/\.ya?ml$/.test(name)) continue;
      const text = readFileSync(path.join(root, 'examples', dir.name, name), 'utf8');
      if (/^version: 1$/m.test(text)) files[name] = text;
    }
    if (Object.keys(files).length > 0) out.push({ name: dir.name, files });
  }
  return out;
}

describe('JSON configuration files', () => {
  const examples = exampleConfigs();

  it('finds the example configurations to convert', () => {
    expect(examples.map((e) => e.name)).toEqual(expect.arrayContaining(['realistic', 'small']));
  });

  it.each(examples)('examples/$name converted to JSON loads to the same desired state as its YAML', async ({ files }) => {
    const yaml = stateOf(await loadFiles(files));
    for (const space of [2, '\t', 0]) {
      const json = Object.fromEntries(Object.entries(files).map(([name, text]) => [name.replace(/\.ya?ml$/, '.json'), toJson(text, space)]));
      const loaded = stateOf(await loadFiles(json));
      expect(withoutSources(loaded)).toEqual(withoutSources(yaml));
      expect(loaded.files).toEqual(Object.keys(json).sort());
      const full = stateOf(await loadFiles(json, { fullPath: true }));
      expect(full).toEqual(loaded);
    }
  });

  it('a directory mixing .yaml, .yml and .json files loads all of them, and nothing else', async () => {
    const result = await loadFiles(
      {
        'a.yaml': 'version: 1\nsettings: { owner: mixed }\n',
        'b.json': JSON.stringify({ version: 1, groups: [{ name: 'from-json' }] }),
        'c.yml': 'version: 1\ngroups: [{ name: from-yml }]\n',
        'notes.txt': 'not a configuration',
        'd.JSON': '{"version": 1, "groups": [{"name": "upper-case-extension"}]}',
      },
      { paths: ['.'] },
    );
    const state = stateOf(result);
    expect(state.files).toEqual(['a.yaml', 'b.json', 'c.yml', 'd.JSON']);
    expect(state.settings.owner).toBe('mixed');
    expect(state.groups.map((g) => [g.name, g.source])).toEqual([
      ['from-json', { file: 'b.json', line: 1, column: 24 }],
      ['from-yml', { file: 'c.yml', line: 2, column: 10 }],
      ['upper-case-extension', { file: 'd.JSON', line: 1, column: 27 }],
    ]);
  });

  it('a directory of JSON files alone is a configuration; an empty one names .json among what it looks for', async () => {
    expect(stateOf(await loadFiles({ 'a.json': '{"version": 1}' }, { paths: ['.'] })).files).toEqual(['a.json']);
    const empty = await loadFiles({ 'x.txt': '' }, { paths: ['.'] });
    expect(diagnosticsOf(empty).map(brief)).toEqual([
      { file: '.', line: 0, column: 0, message: 'directory contains no .yaml, .yml or .json files' },
    ]);
  });

  it('"$schema" at the top level is for editors: the schema they validate with allows it, and the loader ignores it', async () => {
    const schema = JSON.parse(readFileSync(path.join(root, 'schemas', 'monsync.schema.json'), 'utf8')) as Record<string, unknown>;
    const editor = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const body = { version: 1, settings: { owner: 'gen' }, groups: [{ name: 'g' }] };
    const withSchema = { $schema: '../schemas/monsync.schema.json', ...body };
    expect(editor(withSchema), JSON.stringify(editor.errors)).toBe(true);
    // A YAML file may carry it too (the language server takes the modeline instead).
    const variants: Record<string, string>[] = [
      { 'a.json': JSON.stringify(withSchema, null, 2) },
      { 'a.yaml': '$schema: x\nversion: 1\nsettings: { owner: gen }\ngroups: [{ name: g }]\n' },
    ];
    for (const files of variants) {
      for (const fullPath of [false, true]) {
        const state = stateOf(await loadFiles(files, { fullPath }));
        expect(withoutSources(state)).toEqual(withoutSources(stateOf(await loadFiles({ 'b.json': JSON.stringify(body) }))));
      }
    }
    // Anything else unknown is still refused, in JSON as in YAML.
    expect(diagnosticsOf(await loadFiles({ 'a.json': JSON.stringify({ $schemas: 'x', ...body }) })).map(brief)).toEqual([
      { file: 'a.json', line: 1, column: 2, message: 'unknown key "$schemas" in the top level; did you mean "$schema"?' },
    ]);
  });

  it('positions of a JSON file point at its keys and values, for the scanner and for the full path alike', async () => {
    const text = [
      '{',
      '  "version": 1,',
      '  "monitors": [',
      '    {',
      '      "label": "mx-1", "ip_address": "mx.example.com", "test_account": "p@example.com",',
      '      "time_zone": "Europe/London", "timer": 5',
      '    }',
      '  ],',
      '  "groups": [{"name": "g", "monitors": ["mx-1"]}]',
      '}',
    ].join('\n');
    expect(same(text)).toBe(true);
    for (const fullPath of [false, true]) {
      const state = stateOf(await loadFiles({ 'm.json': text }, { fullPath }));
      expect(state.monitors[0]!.source).toEqual({ file: 'm.json', line: 4, column: 5 });
      expect(state.groups[0]!.source).toEqual({ file: 'm.json', line: 9, column: 14 });
    }
  });

  it('the scanner reads JSON written any valid way as the full path does: tabs, CRLF, lone CR, escapes, one line', () => {
    for (const text of [
      '{"version":1,"monitors":[{"label":"a","meta":{"k":"v"}},{"label":"b"}],"x":[[],{},[1,[2]]]}',
      '{\n\t"version": 1,\n\t"groups": [\n\t\t{ "name": "g" }\n\t]\n}\n',
      '{\r\n  "version": 1,\r\n  "groups": [\r\n    {"name": "g"}\r\n  ]\r\n}\r\n',
      '{\r  "version": 1,\r  "groups": [\r    {"name": "g"}\r  ]\r}\r',
      '{"version": 1, "l\\u0061bel": "\\u00e9\\t\\"\\\\\\/\\b\\f\\n\\r", "a\\"b": 1, "a\\\\b": 2, "\\ud83d\\ude00": "\\ud83d\\ude00 \\ud800"}',
      '{"version": 1, "n": [0, -0, 1.5, -1e3, 1E+2, 0.5e-3, 12345678901234567890, 1e400], "t": [true, false, null]}',
      '{"version": 1, "raw": "caf\u00e9 \u2028 \u0085 \u007f \u0090 \ufeff \u{1F600}", "": "empty key", "a:b": "c # d"}',
      `{"version": 1, "${'k'.repeat(1100)}": 1}`,
      '{"version"\n  :\n  1\n  ,\n  "x"\n  :\n  [\n  1\n  ,\n  2\n  ]\n}',
      '  \n {"version": 1}  \n\n',
    ]) {
      expect(same(text), text).toBe(true);
    }
  });

  it('leaves to the full path what the full path judges: duplicate and reserved keys, ${, deep nesting, a top level that is not an object', () => {
    const deep = (levels: number) => `{"version": 1, "x": ${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(same(deep(30))).toBe(true);
    for (const text of [
      '{"version": 1, "version": 1}',
      '{"version": 1, "m": {"a": 1, "a": 1}}',
      '{"version": 1, "__proto__": {}}',
      '{"version": 1, "constructor": 1}',
      '{"version": 1, "x": "${REGION}"}',
      '{"version": 1, "x": "\\u0024{REGION}"}',
      deep(40),
      '[{"version": 1}]',
      '"version"',
      '1',
    ]) {
      const scan = scanJson(text, 'f.json');
      expect(scan, text).toEqual({ text, data: expect.anything() });
    }
  });

  it('the scanner and the full path agree on any JSON (property)', () => {
    const key = fc.oneof(
      { weight: 5, arbitrary: fc.stringMatching(/^[a-z_][a-z0-9_-]{0,6}$/) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: 'binary' }) },
    );
    const scalar = fc.oneof(
      fc.string({ maxLength: 8, unit: 'binary' }),
      fc.stringMatching(/^[a-z0-9 .@$:#{}"\\-]{0,8}$/),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, tie('object'), tie('list')),
      object: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      list: fc.array(tie('node'), { maxLength: 4 }),
    })).object;
    const layout = fc.constantFrom<[string | number, string]>([0, '\n'], [2, '\n'], ['\t', '\n'], [1, '\r\n'], [3, '\r']);
    fc.assert(
      fc.property(value, layout, (v, [space, eol]) => {
        const text = JSON.stringify({ version: 1, ...v }, null, space).replace(/\n/g, eol);
        const scan = scanJson(text, 'f.json');
        expect('diagnostic' in scan, text).toBe(false);
        same(text);
      }),
      { numRuns: 400 },
    );
  });
});
