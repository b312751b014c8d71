/**
 * README is the front door (under 300 lines, a table of contents, the two set-up commands, the
 * releases it pins); the rest of the user documentation is in docs/, and what it says about the code
 * is held to the code here: the configuration reference generated from the schema, every command and
 * option named where docs/commands.md describes the command.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { configReference, pageWithReference } from '../../scripts/config-reference.mjs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const configuration = read('docs/configuration.md');
const commands = read('docs/commands.md');
const docs = readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md'));
const schema = JSON.parse(read('schemas/monsync.schema.json'));
const pkg = JSON.parse(read('package.json')) as { version: string };

async function program() {
  const { Command } = await import('commander');
  const { registerCommands } = await import('../../src/cli/commands.js');
  const p = new Command();
  registerCommands(p);
  return p;
}

describe('README.md', () => {
  it('is under 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThan(300);
  });

  it('opens with a table of contents that lists every section', () => {
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    const toc = [...readme.slice(0, readme.indexOf('\n## ')).matchAll(/^- \[([^\]]+)\]\(#[^)]+\)$/gm)].map((m) => m[1]!);
    expect(toc).toEqual(sections);
  });

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });

  it('pins the action, the component and the hooks at the release package.json names, under one owner placeholder', () => {
    for (const file of ['README.md', 'docs/ci.md', 'examples/ci/github-actions.yml', 'examples/ci/gitlab-ci.yml']) {
      const text = read(file);
      expect(text, file).toMatch(/your-org\/monsync(\/monsync)?@v\d/);
      // Every release named is the current one: a pin left behind by a release fails here.
      expect({ file, releases: [...new Set(text.match(/\bv\d+\.\d+\.\d+\b/g))] }).toEqual({ file, releases: [`v${pkg.version}`] });
      // One placeholder for the owner, said to be one.
      expect([...new Set([...text.matchAll(/(?<![\w.])([A-Za-z][\w-]*)\/monsync(?:\.git|\/monsync)?[@#/]/g)].map((m) => m[1]))].filter((owner) => owner !== 'node_modules')).toEqual(['your-org']); // node_modules/monsync/bin: the installed package, not an owner
      expect(text, file).toMatch(/your-org[\s\S]{0,80}placeholder/);
    }
  });

  it('says plainly that the release tag is made when the release is cut, and how to pin a commit before then', () => {
    // The pins name a tag a copy of monsync may not have yet (none is made before the release is cut).
    const ci = read('docs/ci.md');
    expect(ci).toContain(`The tag \`v${pkg.version}\` is made when that release is cut`);
    for (const pin of ['uses: your-org/monsync@<sha>', 'component: $CI_SERVER_FQDN/your-org/monsync/monsync@<sha>', 'rev: <sha>', 'git+https://github.com/your-org/monsync.git#<sha>']) {
      expect(ci).toContain(pin);
    }
    const quickStart = readme.slice(readme.indexOf('## CI quick start'));
    expect(quickStart.slice(0, quickStart.indexOf('```'))).toMatch(/a tag\s+made when the release is cut: until your copy of monsync has it, pin a commit \(\[docs\/ci\.md\]\(docs\/ci\.md\)/);
  });
});

describe('docs/configuration.md', () => {
  it('holds the config reference generated from the schema (run `node scripts/config-reference.mjs --write`)', () => {
    expect(pageWithReference(configuration, configReference(schema))).toBe(configuration);
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
    const missing = [...fields].filter((f) => !configuration.includes(`${f}\``));
    expect(missing).toEqual([]);
  });
});

describe('the commands the documentation names', () => {
  it('are commands the CLI has (README and every page of docs/)', async () => {
    const known = new Set((await program()).commands.map((c) => c.name()));
    for (const [name, text] of [['README.md', readme], ...docs.map((f) => [f, read(`docs/${f}`)])] as const) {
      // Command lines only: `monsync x`, npx monsync x.
      const used = [...text.matchAll(/(?:npx |`)monsync ([a-z][a-z-]+)/g)].map((m) => m[1]!);
      expect({ name, unknown: [...new Set(used)].filter((c) => !known.has(c)) }).toEqual({ name, unknown: [] });
    }
  });

  it('each have a section in docs/commands.md naming every option (the connection options --url, --timeout, --account and --all-accounts under Connection)', async () => {
    const p = await program();
    // A section runs from its "## `monsync NAME`" heading to the next heading.
    const sections = [...commands.matchAll(/^## `monsync ([a-z-]+)`\n[\s\S]*?(?=^## |(?![\s\S]))/gm)];
    expect(sections.length).toBeGreaterThan(5);
    const connection = ['--url', '--timeout', '--account', '--all-accounts'];
    const conn = commands.slice(commands.indexOf('\n## Connection\n'), commands.indexOf('\n## ', commands.indexOf('\n## Connection\n') + 1));
    for (const flag of connection) expect(conn).toContain(`\`${flag}`);
    const missing = sections.flatMap(([section, name]) => {
      const cmd = p.commands.find((c) => c.name() === name);
      const flags = (cmd?.options ?? []).map((o) => o.long).filter((f): f is string => f !== undefined && !connection.includes(f));
      return flags.filter((f) => !section.includes(`\`${f}`) && !section.includes(` ${f}`) && !section.includes(`[${f}`)).map((f) => `${name} ${f}`);
    });
    expect(missing).toEqual([]);
    // Every command has its section, or is one of those "Operating the account" lists.
    const operating = commands.slice(commands.indexOf('\n## Operating the account'));
    const undocumented = p.commands.map((c) => c.name()).filter((n) => !sections.some(([, s]) => s === n) && !operating.includes(`\`${n}\``));
    expect(undocumented).toEqual([]);
  });

  it("each have a line in README's Commands table, linking to their section", () => {
    const table = readme.slice(readme.indexOf('\n## Commands\n'), readme.indexOf('\n## ', readme.indexOf('\n## Commands\n') + 1));
    for (const [, name] of commands.matchAll(/^## `monsync ([a-z-]+)`$/gm)) expect(table).toContain(`[\`${name}\`](docs/commands.md#monsync-${name})`);
  });
});
