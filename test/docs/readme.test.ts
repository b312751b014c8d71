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

  it('names every option of a command in its section (the connection options --url and --timeout under Credentials)', async () => {
    const { Command } = await import('commander');
    const { registerCommands } = await import('../../src/cli/commands.js');
    const program = new Command();
    registerCommands(program);
    // A section runs from its `### \`monsync NAME ...\`` heading to the next heading.
    const sections = [...readme.matchAll(/^### `monsync ([a-z-]+)[^\n]*\n[\s\S]*?(?=^#)/gm)];
    expect(sections.length).toBeGreaterThan(5);
    const connection = ['--url', '--timeout'];
    for (const flag of connection) expect(readme.slice(readme.indexOf('## Credentials'))).toContain(`\`${flag}`);
    const missing = sections.flatMap(([section, name]) => {
      const cmd = program.commands.find((c) => c.name() === name);
      const flags = (cmd?.options ?? []).map((o) => o.long).filter((f): f is string => f !== undefined && !connection.includes(f));
      return flags.filter((f) => !section.includes(`\`${f}`) && !section.includes(` ${f}`) && !section.includes(`[${f}`)).map((f) => `${name} ${f}`);
    });
    expect(missing).toEqual([]);
  });
});
