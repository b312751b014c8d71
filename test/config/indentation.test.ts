/**
 * Indentation mistakes (src/config/indentation.ts) in a property: take a well-formed configuration,
 * move one key to an indentation no level above it has, and the loader reports exactly that line,
 * in the user's terms, and nothing it set off further down. The corpus (test/fixtures/bad/indent-*)
 * pins the exact messages of the common cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../src/config/parse.js';

/** A configuration whose key lines sit at the indentations 0, 2 (list items), 4, 6 (alert items) and 8. */
const LINES = [
  'version: 1',
  'monitors:',
  '  - label: mx-1',
  '    ip_address: mx.example.com',
  '    test_account: probe@example.com',
  '    time_zone: Europe/London',
  '    timer: 5',
  '    alerts:',
  '      - subject_init: down',
  '        subject_term: up',
  '        timeout: 15',
  '  - label: mx-2',
  '    ip_address: mx.example.com',
  '    test_account: probe@example.com',
  '    time_zone: Europe/London',
  '    timer: 5',
  'groups:',
  '  - name: g',
  '    monitors: [mx-1, mx-2]',
];

/** Lines holding a plain `key: value` (no list dash), with the indentations no level above them uses. */
const movable = LINES.map((l, i) => ({ i, indent: l.length - l.trimStart().length, body: l.trimStart() }))
  .filter(({ body, i }) => i > 0 && !body.startsWith('- ') && /^[a-z_]+: \S/.test(body));

function diagnose(lines: readonly string[]) {
  const { diagnostics } = parseSource({ path: 'f.yaml', display: 'f.yaml', text: `${lines.join('\n')}\n` });
  return diagnostics;
}

describe('indentation mistakes', () => {
  it('the configuration the property starts from has no problem', () => {
    expect(diagnose(LINES)).toEqual([]);
  });

  it('a key moved to an indentation no mapping above it uses is reported at its own line, once, with the indentations above', () => {
    fc.assert(
      fc.property(fc.constantFrom(...movable), fc.integer({ min: 1, max: 9 }), ({ i, indent, body }, to) => {
        // Levels a key above this line may sit at: 0, 4 and, inside an alert, 8.
        const levels = [0, 4, ...(LINES.slice(0, i).some((l) => l.startsWith('      - ')) && indent === 8 ? [8] : [])];
        fc.pre(!levels.includes(to) && to !== indent);
        const moved = LINES.slice();
        moved[i] = ' '.repeat(to) + body;
        const d = diagnose(moved);
        expect(d, moved.join('\n')).toHaveLength(1);
        expect(d[0]).toMatchObject({ line: i + 1, column: to + 1 });
        expect(d[0]!.message).toMatch(new RegExp(`^this line is indented ${to} spaces?; the keys above it are indented .*: line it up with the keys of its mapping$`));
      }),
      { numRuns: 200 },
    );
  });

  it('a key pushed deeper under a key that already has a value is reported at its own line, not at the line above', () => {
    const moved = LINES.slice();
    moved[6] = `      ${LINES[6]!.trimStart()}`;
    expect(diagnose(moved).map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      '7:7: this line is indented 6 spaces; the keys above it are indented 4 ("time_zone") or 0 ("monitors"): line it up with the keys of its mapping',
    ]);
  });

  it('leaves other syntax errors in the parser\'s words', () => {
    const moved = LINES.slice();
    moved[18] = '    monitors: [mx-1, mx-2';
    expect(diagnose(moved).map((d) => d.message)).toEqual([
      'flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
  });
});
