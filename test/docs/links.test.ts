/**
 * Every link of the user documentation (README, CHANGELOG, CONTRIBUTING and docs/*.md) that points
 * into the repository leads somewhere: the file exists, and an anchor names a heading of that page as
 * GitHub renders it (lower case, punctuation dropped, spaces as hyphens, -1, -2 for repeats). And no
 * paragraph is told twice: each is written once, on one page, and linked from the others.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const text = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** The page without fenced code blocks (their lines blanked, so line numbers stay) and inline code. */
export function prose(markdown: string, keepCode = false): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      if (fenced) return '';
      return keepCode ? line.replace(/`([^`]*)`/g, '$1') : line.replace(/`[^`]*`/g, '``');
    })
    .join('\n');
}

/** GitHub's anchors of a page's headings. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, title] of prose(markdown, true).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = title!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The links of a page that point into the repository: [page, line, target]. */
function links(page: string): [string, number, string][] {
  const out: [string, number, string][] = [];
  prose(text(page))
    .split('\n')
    .forEach((line, i) => {
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!/^[a-z]+:/.test(target!)) out.push([page, i + 1, target!]);
      }
    });
  return out;
}

describe('the links of the documentation', () => {
  it('anchors are made as GitHub makes them', () => {
    expect([...anchors('# A\n## `monsync plan`\n## Conflicts: what stops the plan\n```\n# not a heading\n```\n## A\n')]).toEqual(['a', 'monsync-plan', 'conflicts-what-stops-the-plan', 'a-1']);
  });

  it.each(PAGES)('%s: every link into the repository leads to a file, and every anchor to a heading', (page) => {
    const broken = links(page).flatMap(([, line, target]) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) return [`${page}:${line}: ${target}: no file ${relative(ROOT, file)}`];
      if (anchor !== undefined && (!file.endsWith('.md') || !anchors(readFileSync(file, 'utf8')).has(anchor))) {
        return [`${page}:${line}: ${target}: no heading #${anchor} in ${relative(ROOT, file)}`];
      }
      return [];
    });
    expect(broken).toEqual([]);
  });

  it('reach every page of docs/ from README in one click', () => {
    const fromReadme = new Set(links('README.md').map(([, , t]) => t.split('#')[0]));
    expect(PAGES.filter((p) => p.startsWith('docs/')).filter((p) => !fromReadme.has(p))).toEqual([]);
  });
});

describe('the documentation', () => {
  it('tells no paragraph twice', () => {
    const where = new Map<string, string>();
    const twice: string[] = [];
    for (const page of PAGES) {
      for (const para of prose(text(page)).split(/\n\s*\n/)) {
        const flat = para.replace(/\s+/g, ' ').trim();
        // Headings, tables and short lines (a link, a list of links) are not told, only pointed to.
        if (flat.length < 120 || flat.startsWith('#') || flat.startsWith('|')) continue;
        if (where.has(flat)) twice.push(`${page} repeats ${where.get(flat)}: ${flat.slice(0, 80)}...`);
        else where.set(flat, page);
      }
    }
    expect(twice).toEqual([]);
  });
});

describe('the user documentation', () => {
  it('cites no internal issue numbers ("(Issue 23.)", `--only-issue-25`): they mean nothing to a user', () => {
    const pages = [...PAGES.filter((p) => p !== 'CONTRIBUTING.md'), ...readdirSync(join(ROOT, 'examples', 'ci')).map((f) => `examples/ci/${f}`)];
    const found = pages.flatMap((page) =>
      text(page)
        .split('\n')
        .flatMap((line, i) => (/\bissues? #?\d+\b|issue-\d+/i.test(line) ? [`${page}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
