/** docs/configuration.md's "Checks" table names every check of the catalogue, with its default severity and what it needs. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS, needsOf } from '../../src/checks/index.js';

const page = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('docs/configuration.md, "Checks"', () => {
  it('lists exactly the catalogue, in its order, with default severities and needs', () => {
    const section = page.slice(page.indexOf('\n## Checks\n'), page.indexOf('\n## ', page.indexOf('\n## Checks\n') + 1));
    const rows = [...section.matchAll(/^\| `([a-z]+\/[a-z-]+)` \| (\w+) \| ([a-z, ]+) \|/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual(CHECKS.map((c) => [c.name, c.severity, needsOf(c)]));
  });
});
