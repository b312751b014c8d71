import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { configReference, readmeWithReference } from '../../scripts/config-reference.mjs';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const schema = JSON.parse(readFileSync(new URL('../../schemas/monsync.schema.json', import.meta.url), 'utf8'));

describe('README.md', () => {
  it('holds the config reference generated from the schema (run `node scripts/config-reference.mjs --write`)', () => {
    expect(readmeWithReference(readme, configReference(schema))).toBe(readme);
  });

  it('documents every field of the schema', () => {
    const fields = new Set<string>();
    const walk = (node: { properties?: Record<string, unknown>; items?: unknown }) => {
      for (const [name, child] of Object.entries(node.properties ?? {})) {
        fields.add(name);
        walk(child as typeof node);
      }
      if (node.items) walk(node.items as typeof node);
    };
    walk(schema);
    const missing = [...fields].filter((f) => !readme.includes(`${f}\``));
    expect(missing).toEqual([]);
  });

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });

  it('names only commands the CLI has', async () => {
    const { Command } = await import('commander');
    const { registerCommands } = await import('../../src/cli/commands.js');
    const program = new Command();
    registerCommands(program);
    const known = new Set(program.commands.map((c) => c.name()));
    // Command lines only: `monsync x`, npx monsync x, ### `monsync x` headings.
    const used = [...readme.matchAll(/(?:npx |`)monsync ([a-z][a-z-]+)/g)].map((m) => m[1]!);
    expect(used.length).toBeGreaterThan(5);
    expect([...new Set(used)].filter((c) => !known.has(c))).toEqual([]);
  });
});
