/**
 * One YAML style: every YAML the project shows a person (README's and docs/'s snippets, the
 * examples, the CI recipes) is written as `monsync fmt` writes it, so copying any of them into a
 * repository passes the recipes' `fmt --check` step.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatted } from '../fmt/helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The ```yaml blocks of a Markdown file, with the line each starts on. */
function yamlBlocks(file: string): { line: number; text: string }[] {
  const md = readFileSync(path.join(ROOT, file), 'utf8');
  const out: { line: number; text: string }[] = [];
  for (const m of md.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)) out.push({ line: md.slice(0, m.index).split('\n').length + 1, text: m[1]! });
  return out;
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir))
    .flatMap((name) => {
      const rel = path.join(dir, name);
      return statSync(path.join(ROOT, rel)).isDirectory() ? yamlFilesUnder(rel) : /\.ya?ml$/.test(name) ? [rel] : [];
    })
    .sort();
}

const markdown = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)];
const snippets = markdown.flatMap((file) => yamlBlocks(file).map((b) => ({ where: `${file}:${b.line}`, text: b.text })));

describe('the YAML snippets of README.md and docs/', () => {
  it('include the configuration examples', () => {
    expect(snippets.filter((s) => s.where.startsWith('README.md:')).length).toBeGreaterThanOrEqual(3);
  });

  it.each(snippets)('$where is written as monsync fmt writes it', async ({ text }) => {
    // A snippet of list items (`  - label: ...`) is read as the monitors it shows.
    const item = /^\s*- /.test(text);
    const whole = item ? `monitors:\n${text}` : text;
    expect(await formatted(whole)).toBe(whole);
  });
});

describe('the examples and the CI recipes', () => {
  const files = yamlFilesUnder('examples');

  it('include every example directory and recipe', () => {
    expect(files).toEqual(expect.arrayContaining(['examples/small/monsync.yaml', 'examples/realistic/europe.yaml', 'examples/ci/github-actions.yml', 'examples/ci/gitlab-ci.yml']));
  });

  it.each(files)('%s is written as monsync fmt writes it', async (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    expect(await formatted(text)).toBe(text);
  });
});
