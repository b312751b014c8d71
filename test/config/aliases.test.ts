/**
 * Anchors, aliases and merge keys cost what any other value costs: the work of reading a document
 * is counted (reads of the items of its mappings and lists), not timed, and stays a small multiple
 * of the document's size however many aliases it has. And hostile documents are refused by a
 * budget on the whole document, at the place where the budget ran out.
 */
import { isCollection, visit, type Document } from 'yaml';
import { describe, expect, it } from 'vitest';
import { indexAliases, measureExpansion } from '../../src/config/aliases.js';
import { indexDocument } from '../../src/config/locate.js';
import { parseSource, toPlainData } from '../../src/config/parse.js';
import { brief, diagnosticsOf, loadFiles, paths } from './helpers.js';

/** n monitors sharing their values through `<<: *common` and their alert's through `<<: *al`. */
function anchored(n: number): string {
  const lines = [
    'version: 1',
    'x-common: &common',
    '  test_account: probe@example.com',
    '  timer: 5',
    'x-al: &al',
    '  timeout: 15',
    '  alert_destinations: [ops]',
    'monitors:',
  ];
  for (let i = 0; i < n; i++) {
    lines.push(`  - <<: *common`, `    label: mx-${i}`, `    ip_address: mx${i}.example.com`, '    alerts:', '      - <<: *al', `        subject_init: mx-${i} down`);
  }
  return lines.join('\n') + '\n';
}

/** Counts every read of an item of a mapping or list of the document, from now on. */
function countItemReads(doc: Document): { reads: number; nodes: number } {
  const counter = { reads: 0, nodes: 0 };
  const collections: { items: unknown[] }[] = [];
  visit(doc, {
    Node(_k, node) {
      counter.nodes++;
      if (isCollection(node)) collections.push(node as unknown as { items: unknown[] });
    },
    Pair() {
      counter.nodes++;
    },
  });
  for (const c of collections) {
    c.items = new Proxy(c.items, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) counter.reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  }
  return counter;
}

describe('anchors and merge keys', () => {
  it('reads a document of 400 merged monitors with work proportional to its size, not to its size times its aliases', () => {
    const { parsed } = parseSource({ path: 'a.yaml', display: 'a.yaml', text: anchored(400) });
    expect(parsed).toBeDefined();
    const work = countItemReads(parsed!.doc);
    const { data, diagnostics } = toPlainData(parsed!);
    expect(diagnostics).toEqual([]);
    const index = indexDocument(parsed!.locator, parsed!.doc, parsed!.lines);
    expect(index.value(['monitors', 399, 'alerts', 0, 'timeout'])).toEqual({ line: 6, column: 12 });
    expect(paths(data).length).toBeGreaterThan(400 * 10);
    // Walking each alias's whole document (as before) reads the items about 800 x 9,000 times.
    expect(work.reads).toBeLessThan(10 * work.nodes);
  });

  it('indexes every alias of a document in one walk of it', () => {
    const { parsed } = parseSource({ path: 'a.yaml', display: 'a.yaml', text: anchored(50) });
    const index = indexAliases(parsed!.doc);
    expect(index.targets.size).toBe(100);
    let nodes = 0;
    visit(parsed!.doc, { Node: () => void nodes++, Pair: () => void nodes++ });
    expect(index.visits).toBe(nodes);
  });

  it('resolves an alias to the last anchor of its name before it, as YAML says', async () => {
    const text = 'version: 1\nx-a: &t {timer: 5}\nx-b: &t {timer: 10}\nmonitors:\n  - label: a\n    ip_address: a.example.com\n    test_account: p@example.com\n    <<: *t\n';
    const { parsed } = parseSource({ path: 'a.yaml', display: 'a.yaml', text });
    const { data } = toPlainData(parsed!);
    expect((data!.monitors as { timer: number }[])[0]!.timer).toBe(10);
    expect(parsed!.locator.value(['monitors', 0, 'timer'])).toEqual({ line: 3, column: 17 });
  });

  it('counts a merged or aliased value at the size of what it repeats', () => {
    const { parsed } = parseSource({ path: 'a.yaml', display: 'a.yaml', text: 'x-a: &a [1, 2, 3]\nx-b: [*a, *a]\n' });
    const index = indexAliases(parsed!.doc);
    // map, 2 pairs, 2 keys, [1,2,3] (4), the list of two aliases (1 + 2 x 4)
    expect(measureExpansion(parsed!.doc, index)).toEqual({ ok: true, nodes: 1 + 2 + 2 + 4 + 1 + 8 });
  });
});

describe('the budget of a whole document', () => {
  it('reads 45,000 uses of 5 anchors (each under any per-anchor cap) in well under a second of work', async () => {
    const uses = Array.from({ length: 45_000 }, (_, i) => `*a${i % 5}`).join(', ');
    const anchors = [0, 1, 2, 3, 4].map((a) => `x-a${a}: &a${a} {k: v}`).join('\n');
    const text = `version: 1\n${anchors}\nx-uses: [${uses}]\n`;
    const { parsed } = parseSource({ path: 'h.yaml', display: 'h.yaml', text });
    const work = countItemReads(parsed!.doc);
    const { diagnostics } = toPlainData(parsed!);
    expect(diagnostics).toEqual([]);
    expect(work.reads).toBeLessThan(10 * work.nodes);
  });

  // A billion laughs: test/config/hostile.test.ts.
  it('refuses an alias inside the value it refers to', async () => {
    const d = diagnosticsOf(await loadFiles({ 'loop.yaml': 'version: 1\nx-a: &a\n  - 1\n  - *a\n' })).map(brief);
    expect(d).toEqual([{ file: 'loop.yaml', line: 4, column: 5, message: 'alias *a refers to a value that contains it: its data would never end' }]);
  });
});
