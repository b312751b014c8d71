/**
 * Random tests are reproducible (issue 34): test/helpers/fast-check-setup.ts, loaded before every
 * test file, fixes fast-check's seed (FC_SEED changes it), and no property overrides it with a seed
 * of its own, which FC_SEED could not reach.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FC_SEED } from '../helpers/fast-check-setup.js';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'fixtures' ? [] : sources(p);
    return /\.(ts|mjs)$/.test(name) ? [p] : [];
  });
}

describe('property tests', () => {
  it('run with the seed FC_SEED names, or the suite fixed one, and a fixed number of runs', () => {
    const global = fc.readConfigureGlobal();
    expect(global.seed).toBe(process.env.FC_SEED ? Number(process.env.FC_SEED) : DEFAULT_FC_SEED);
    expect(global.numRuns).toBe(100);
  });

  it('name no seed of their own, and every fc.assert names its number of runs', () => {
    const offending: string[] = [];
    for (const file of sources(join(ROOT, 'test'))) {
      if (file === import.meta.filename) continue;
      const text = readFileSync(file, 'utf8');
      if (!text.includes('fc.assert(')) continue;
      const name = relative(ROOT, file);
      // The options object of each fc.assert: from the call to its closing line.
      for (const call of text.split('fc.assert(').slice(1)) {
        const body = call.slice(0, call.search(/\n {0,6}\);/) + 1 || undefined);
        if (/\bseed:/.test(body.replace(/emu\.control\.\w+\([^)]*\)/g, ''))) offending.push(`${name}: a seed of its own`);
        if (!/\bnumRuns:/.test(body)) offending.push(`${name}: no numRuns`);
      }
    }
    expect(offending).toEqual([]);
  });
});
