/**
 * The fast path (src/config/fast/) either gives up or gives exactly what the full path
 * gives: the same data as the yaml library after interpolation, and the same position for every
 * path as the Locator.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastParse } from '../../src/config/fast/parse.js';
import { interpolateDocument } from '../../src/config/interpolate.js';
import { parseSource, toPlainData } from '../../src/config/parse.js';
import { loadFiles, monitorYaml, paths, stateOf } from './helpers.js';

const root = path.join(import.meta.dirname, '..', '..');

/** Variables interpolation finds: a value the full path interpolates differs from its text. */
const ENV = { REGION: 'eu', EMPTY: '' };

/** True when the fast path took the text; fails the test when it differs from the full path. */
function same(text: string): boolean {
  const fast = fastParse(text, 'f.yaml');
  if (!fast) return false;
  const { parsed, diagnostics } = parseSource({ path: 'f.yaml', display: 'f.yaml', text });
  expect(diagnostics, text).toEqual([]);
  expect(interpolateDocument(parsed!, ENV).diagnostics, text).toEqual([]);
  const { data } = toPlainData(parsed!);
  expect(fast.data, text).toStrictEqual(data);
  for (const p of paths(data)) {
    expect(fast.positions.value(p), `${text}\nvalue ${JSON.stringify(p)}`).toEqual(parsed!.locator.value(p));
    expect(fast.positions.key(p), `${text}\nkey ${JSON.stringify(p)}`).toEqual(parsed!.locator.key(p));
  }
  return true;
}

const BENCH_LIKE = `version: 1
monitors:
  - label: "mx-00001"
    ip_address: "mx1.mail.example.com"
    timer: 10
    time_zone: America/New_York
    meta: { region: us }
    alerts:
      - subject_init: "mx-00001 down"
        subject_term: "mx-00001 up"
        alert_destinations: [ops-01, ops-02]
        repeat: true
  - label: "mx-00002"
    meta: {}
    previous_labels: []
`;

/**
 * Double-quoted scalars made of escapes and of what interpolation looks at: `$`, `{` and `${`
 * written as they are or spelled with escapes (`\u0024{REGION}` is `${REGION}` once decoded).
 */
const escaped = fc
  .array(
    fc.constantFrom(
      'a', ' ', '$', '{', '}', '${', '$${', 'REGION', 'EMPTY', 'UNSET', ':-d', '#', ': ',
      '\\u0024', '\\u007b', '\\u007B', '\\u007d', '\\u0024\\u007b', '\\"', '\\\\', '\\/',
      '\\t', '\\n', '\\u00e9', '\\ud83d\\ude00', '\\u2028', '\\u0085',
    ),
    { maxLength: 6 },
  )
  .map((pieces) => `"${pieces.join('')}"`);

describe('fastParse', () => {
  it('takes a configuration of the usual shape, with the data and positions of the full path', () => {
    expect(same(BENCH_LIKE)).toBe(true);
    expect(same(`# leading comment\n\nversion: 1\n# between\nsettings:\n    # inside\n    owner: me   \n    prune: false\ngroups:\n# at column 0\n  -   name: g\n      monitors: ["a", b , c]\n  - name: "h \\"q\\" \\u00e9"\n`)).toBe(true);
  });

  it('takes anchors on block mappings and merge keys of them, with the positions of the anchor for merged values', () => {
    const anchored = `version: 1
x-monitor: &monitor
  test_account: "probe@example.com"
  timer: 5
  meta: { region: eu }
x-alert: &alert
  timeout: 15
  alert_destinations: [ops-00]
monitors:
  - <<: *monitor
    label: "mx-00001"
    timer: 10
    alerts:
      - <<: *alert
        subject_init: "down"
        alert_destinations: [ops-01]
      - subject_init: "up"
        <<: *alert
  - label: "mx-00002"
    <<: *monitor
    meta: {}
`;
    expect(same(anchored)).toBe(true);
    const fast = fastParse(anchored, 'f.yaml')!;
    // Each merge has values of its own, as the full path builds them.
    const alerts = (fast.data.monitors as { alerts: { alert_destinations: string[] }[] }[])[0]!.alerts;
    expect(alerts[1]!.alert_destinations).not.toBe((fast.data['x-alert'] as { alert_destinations: string[] }).alert_destinations);
  });

  it('takes anchors on flow collections and aliases of collections, positions below an alias at the anchor', () => {
    const text = `version: 1
x-a0: &a0 { k: v, l: "2" }
x-l: &l [a, b]
x-m: &m
  n: *a0
x-uses: [*a0, *l, *m]
x-more:
  - *a0
  - { w: *l }
monitors:
  - label: a
    meta: *a0
    <<: *m
`;
    expect(same(text)).toBe(true);
  });

  it('leaves a document whose aliases repeat too much to the full path (which refuses it)', () => {
    const levels = ['x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    const names = 'abcdefghi';
    for (let i = 1; i < names.length; i++) levels.push(`x-${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(', ')}]`);
    expect(fastParse(`version: 1\n${levels.join('\n')}\n`, 'f.yaml')).toBeUndefined();
  });

  it('leaves other uses of anchors and aliases, and mistakes around merge keys, to the full path', () => {
    const head = 'version: 1\nx-m: &m\n  timer: 5\n';
    for (const rest of [
      'monitors:\n  - <<: *m\n    <<: *m\n',
      'monitors:\n  - <<: *nope\n',
      'monitors:\n  - timer: 1\n    <<: *m\n    timer: 2\n',
      'x-c: &c\n  d: *c\n',
      'x-c: &m [*m]\n',
      'x-c: &c\n  <<: *c\n',
      'monitors:\n  - <<: [*m]\n',
      'x-l: &l\n  - 1\n',
      'x-s: &s 5\n',
    ]) {
      expect(fastParse(head + rest, 'f.yaml'), rest).toBeUndefined();
    }
  });

  it('gives up on what it does not read itself', () => {
    for (const text of [
      'version: 1\nx: &a 1\ny: *a\n',
      'version: 1\nx: |\n  text\n',
      'version: 1\nx:\n',
      'version: 1\nx: a # comment\n',
      'version: 1\nx: "${HOME}"\n',
      'version: 1\nx:\n- a\n',
      'version: 1\nx: a\n  b\n',
      'version: 1\nx: 0x1F\n',
      'version: 1\nx: 1.5\n',
      "version: 1\nx: 'a'\n",
      'version: 1\nTrue: 1\n',
      'version: 1\nx: 1\nx: 2\n',
      '---\nversion: 1\n',
      'version: 1\nx: [a, [b, [c]]]\n',
      'version: 1\nx: { a: { b: [c] } }\n',
      'version: 1\nx: { a: b: c }\n',
      'version: 1\n__proto__: 1\n',
      'version: 1\r\nx: 1\r\n',
      'version: 1\nx: "a\\x41"\n',
    ]) {
      expect(fastParse(text, 'f.yaml'), text).toBeUndefined();
    }
  });

  it('takes the edges of its subset as the full path reads them', () => {
    for (const text of [
      'version: 1',
      'version: 1\nx: 0\ny: 123456789012345\n',
      'version: 1\nx: [a,b ,  "c" ]\ny: {a: 1,  b: "x"}\nz: []\nw: {}\n',
      'version: 1\nx: a:b\ny: a#b\nz: "a # b: c"\n',
      'version: 1\nx: caf\u00e9 \u0085 \u00a0\n',
      `version: 1\n${'k'.repeat(1000)}: 1\n`,
      'version: 1\nx:\n  - a\n  - b: 1\n    c:\n      - d\n  -   e: [f]\n',
      'version: 1\nx:\n    y:\n         z: ~\n',
      'version: 1\nx: "\\u00e9\\t\\"\\\\"\n',
      'version: 1\nx: hasOwnProperty\ntoString: 1\nvalueOf:\n  - 2\n',
      'version: 1\nx: a$b {$}\ny: "$ \u0085 \u2028"\nz: [$a, "$"]\n# $ {\u0085\n',
      // Comments are not values: the full path interpolates nothing there.
      'version: 1\n# ${B}\nx: 1 \n  # ${REGION:-x}\n',
      'version: 1\nx: "\\u0024"\ny: "\\u007b"\nz: "\\u0024 {\\u007d"\n',
      // A flow collection inside another, one level (issue 38: `alert: { alert_destinations: [ops] }`).
      'version: 1\ndefaults:\n  alert: { timeout: 15, alert_destinations: ["ops-00", b] }\nx: [a, [b, c], {d: e}, []]\ny: {a: {}, b: [ ], c: {d: 1}}\n',
      'version: 1\nx:\n  - [a, [b]]\n  - {a: [b]}\n',
    ]) {
      expect(same(text), text).toBe(true);
    }
    const deep = (levels: number) => `version: 1\n${Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`;
    for (const text of [
      'version: 1\nx: 1234567890123456\n',
      'version: 1\nx: 01\n',
      'version: 1\nx: +1\n',
      'version: 1\nx: .5\n',
      'version: 1\nx: {a:1}\n',
      'version: 1\nx: {a: 1,}\n',
      'version: 1\nx: [a,]\n',
      'version: 1\nx: [,a]\n',
      'version: 1\nx: [a] b\n',
      'version: 1\nx: "a" b\n',
      'version: 1\nx: "a\n',
      'version: 1\nx: a: b\n',
      'version: 1\nx: a:\n',
      'version: 1\n- a\n',
      'version: 1\nx:\n  - - a\n',
      'version: 1\nx:\n  -\n',
      'version: 1\nx:\n  -a\n',
      `version: 1\n${'k'.repeat(1001)}: 1\n`,
      'version: 1\nx: {constructor: 1}\n',
      'version: 1\nx: {a: 1, a: 2}\n',
      'version: 1\n...\n',
      '%YAML 1.2\nversion: 1\n',
      ' version: 1\n',
      deep(33),
      // Characters the full path must see, wherever they are: scalars, comments, flow items.
      'version: 1\nx: a${B}\n',
      'version: 1\nx: "${B}"\n',
      'version: 1\nx: [a, "b${C}"]\n',
      'version: 1\nx: "a\\u0041${B}"\n',
      // The same once decoded: interpolation works on values, not on how they were written.
      'version: 1\nx: "\\u0024{REGION}"\n',
      'version: 1\nx: "$\\u007bREGION}"\n',
      'version: 1\nx: [a, "\\u0024\\u007BUNSET}"]\n',
      'version: 1\nx: {a: "\\u0024{EMPTY:-d}"}\n',
      'version: 1\nx: a\u0084\n',
      'version: 1\nx: "a\u009f"\n',
      'version: 1\nx: {a: b\u007f}\n',
      'version: 1\n  # \ufeff\n',
      'version: 1\nx: "a\tb"\n',
      'version: 1\n# tab\there\n',
      'version: 1\nx: 1\r\n',
      '\ufeffversion: 1\n',
    ]) {
      expect(fastParse(text, 'f.yaml'), text).toBeUndefined();
    }
    expect(same(deep(32))).toBe(true);
  });

  it('agrees with the full path on every example it takes', () => {
    for (const dir of ['examples/realistic', 'examples/small']) {
      for (const name of readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.yaml'))) {
        same(readFileSync(path.join(root, dir, name), 'utf8'));
      }
    }
  });

  it('agrees with the full path on double-quoted strings with escapes, a `${` spelled with escapes included', () => {
    let taken = 0;
    fc.assert(
      fc.property(escaped, escaped, escaped, (a, b, c) => {
        if (same(`version: 1\nx: ${a}\ny: [${b}, b]\nz: {k: ${c}}\n`)) taken++;
      }),
      { numRuns: 600 },
    );
    expect(taken).toBeGreaterThan(100);
  });

  it('agrees with the full path on generated block and flow YAML', () => {
    const word = fc.oneof(
      { weight: 6, arbitrary: fc.stringMatching(/^[a-z][a-z0-9 ._/@-]{0,7}$/) },
      { weight: 1, arbitrary: fc.stringMatching(/^[a-zA-Z0-9 _.:#"\\'{}[\],~$-]{0,8}$/) },
    );
    const key = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,5}$/);
    const scalar = fc.oneof(
      word,
      word.map((w) => JSON.stringify(w)),
      escaped,
      fc.constantFrom('1', '007', 'true', 'null', '~', '-1', 'x:y', 'a b', 'a$b', '${REGION}', 'x$${y}'),
    );
    const flowSeq = fc.array(scalar, { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`);
    const flowMap = fc.array(fc.tuple(key, scalar), { maxLength: 3 }).map((xs) => `{ ${xs.map(([k, v]) => `${k}: ${v}`).join(', ')} }`);
    const value = fc.oneof(scalar, flowSeq, flowMap);
    const block = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, value.map((v) => ({ inline: v })), tie('map'), tie('seq')),
      map: fc.array(fc.tuple(key, tie('node')), { minLength: 1, maxLength: 3 }).map((pairs) => ({ pairs })),
      seq: fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((items) => ({ items })),
    }));
    type N = { inline: string } | { pairs: [string, N][] } | { items: N[] };
    const render = (n: N, indent: number): string[] => {
      const pad = ' '.repeat(indent);
      if ('inline' in n) return [n.inline];
      if ('pairs' in n) {
        return n.pairs.flatMap(([k, v]) => {
          if ('inline' in v) return [`${pad}${k}: ${v.inline}`];
          return [`${pad}${k}:`, ...render(v, indent + 2).map((l) => ('inline' in v ? l : l))];
        });
      }
      return n.items.flatMap((v) => {
        if ('inline' in v) return [`${pad}- ${v.inline}`];
        const inner = render(v, indent + 2);
        return [`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1)];
      });
    };
    let taken = 0;
    // Comment lines, blank lines and trailing spaces, anywhere.
    const noise = fc.array(fc.constantFrom('', '# c', '    # c: d', '  ', '', '# x', ' x', '# ${REGION}'), { maxLength: 4 });
    fc.assert(
      fc.property(block.map, noise, fc.nat(), fc.boolean(), (m, extra, seed, trailing) => {
        const lines = render(m as N, 0).map((l) => (trailing ? `${l}  ` : l));
        extra.forEach((e, i) => lines.splice((seed + i * 7) % (lines.length + 1), 0, e));
        const text = `version: 1\n${lines.join('\n')}\n`;
        if (same(text)) taken++;
      }),
      { numRuns: 400 },
    );
    expect(taken).toBeGreaterThan(20);
  });
});

describe('interpolation, on whichever path a file takes', () => {
  it('reads a `${` spelled with escapes as `${`, so a comment elsewhere in the file changes no label', async () => {
    const monitor = monitorYaml('"mx-\\u0024{REGION}"', '    meta: { site: "\\u0024{SITE:-hq}" }\n');
    const plain = `version: 1\nmonitors:\n${monitor}`;
    // A trailing comment is outside the fast path's subset: this file takes the full path.
    const commented = plain.replace('timer: 5', 'timer: 5  # every five minutes');
    for (const text of [plain, commented]) {
      const state = stateOf(await loadFiles({ 'm.yaml': text }, { env: { REGION: 'eu' } }));
      expect(state.monitors.map((m) => [m.label, m.spec.meta]), text).toEqual([['mx-eu', { site: 'hq' }]]);
    }
  });
});
