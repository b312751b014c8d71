/**
 * `npm run test:unit` is the fast loop: it must not build and spawn the CLI. Every test file that
 * runs the built CLI (through test/helpers/cli.ts, test/helpers/build.ts or test/ci/build.ts) belongs to the e2e project,
 * whose list is vitest.config.ts's E2E. The third project, SLOW, holds named files too long for the
 * unit loop (issue 34); `npm test` runs all three.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E, SLOW } from '../../vitest.config.js';

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'bench' || name === 'fixtures' ? [] : testFiles(p);
    return name.endsWith('.test.ts') ? [relative(ROOT, p)] : [];
  });
}

function inE2e(file: string): boolean {
  return E2E.some((pattern) => (pattern.endsWith('/**/*.test.ts') ? file.startsWith(pattern.slice(0, -'**/*.test.ts'.length)) : file === pattern));
}

describe('the unit and e2e test projects', () => {
  it('put every test file that runs the built CLI in the e2e project', () => {
    const spawning = testFiles(join(ROOT, 'test')).filter((f) => /(?:helpers\/(?:cli|build)|ci\/build)\.js'/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(spawning.length).toBeGreaterThan(5);
    expect(spawning.filter((f) => !inE2e(f))).toEqual([]);
  });

  it('name in the e2e list only files that exist', () => {
    const files = new Set(testFiles(join(ROOT, 'test')));
    expect(E2E.filter((p) => !p.includes('*') && !files.has(p))).toEqual([]);
  });

  it('name in the slow list only files that exist, none of them in the e2e project', () => {
    const files = new Set(testFiles(join(ROOT, 'test')));
    expect(SLOW.filter((p) => !files.has(p))).toEqual([]);
    expect(SLOW.filter((p) => inE2e(p))).toEqual([]);
  });
});
