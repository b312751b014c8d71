/**
 * PositionIndex (what the cross-file stages locate with once a file's YAML document is dropped)
 * answers every path exactly as the Locator over the document does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexDocument } from '../../src/config/locate.js';
import { parseSource, toPlainData } from '../../src/config/parse.js';
import { paths } from './helpers.js';

const root = path.join(import.meta.dirname, '..', '..');

function check(display: string, text: string): number {
  const { parsed } = parseSource({ path: display, display, text });
  expect(parsed, display).toBeDefined();
  const { data } = toPlainData(parsed!);
  const index = indexDocument(parsed!.locator, parsed!.doc, parsed!.lines);
  const all = paths(data);
  for (const p of all) {
    expect(index.value(p), `${display} value ${JSON.stringify(p)}`).toEqual(parsed!.locator.value(p));
    expect(index.key(p), `${display} key ${JSON.stringify(p)}`).toEqual(parsed!.locator.key(p));
  }
  return all.length;
}

const ANCHORS = `version: 1
x-base: &base
  timer: 10
  meta: &meta { region: eu, tier: "1" }
x-more: &more
  <<: *base
  port: 587
  use_tls:
x-alerts: &alerts
  - subject_init: down
    subject_term: up
monitors:
  - label: a
    <<: [*more, *base]
    timer: 15
    meta: *meta
    alerts: *alerts
  - <<: *more
    label: b
    alerts:
      - *alerts
      -
      - subject_init: "quoted \\"x\\""
        alert_destinations: [ops, "dev" , 'x y']
    previous_labels:
  - label: c
    meta: {}
    alerts: []
groups:
  - name: g
    monitors: [a, *meta, b]
`;

describe('PositionIndex', () => {
  it('gives the Locator positions for every path of the examples', () => {
    let n = 0;
    for (const dir of ['examples/realistic', 'examples/small']) {
      for (const name of readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.yaml'))) {
        n += check(`${dir}/${name}`, readFileSync(path.join(root, dir, name), 'utf8'));
      }
    }
    expect(n).toBeGreaterThan(100);
  });

  it('follows aliases and merge keys as the Locator does', () => {
    expect(check('anchors.yaml', ANCHORS)).toBeGreaterThan(100);
  });
});
