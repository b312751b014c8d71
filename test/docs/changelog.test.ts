/**
 * CHANGELOG.md keeps the form of Keep a Changelog (an Unreleased section, then releases newest first,
 * each `## [X.Y.Z] - YYYY-MM-DD` with Added / Changed / Deprecated / Removed / Fixed / Security
 * sections and a link), and its latest release is the version package.json and `monsync --version`
 * give: a release a user pins is the one the changelog describes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const changelog = read('CHANGELOG.md');
const pkg = JSON.parse(read('package.json')) as { version: string };
const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((m) => ({ version: m[1]!, date: m[2]! }));
const semver = (v: string) => v.split('.').map(Number) as [number, number, number];
const newer = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  return x[0] !== y[0] ? x[0] > y[0] : x[1] !== y[1] ? x[1] > y[1] : x[2] > y[2];
};

describe('CHANGELOG.md', () => {
  it("has as its latest release the version of package.json and src/version.ts", () => {
    expect(releases[0]?.version).toBe(pkg.version);
    expect(VERSION).toBe(pkg.version);
  });

  it('lists Unreleased first, then releases newest first with their dates, each with a link', () => {
    const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(headings[0]).toBe('[Unreleased]');
    expect(headings.slice(1)).toEqual(releases.map((r) => `[${r.version}] - ${r.date}`));
    for (let i = 1; i < releases.length; i++) {
      expect(newer(releases[i - 1]!.version, releases[i]!.version)).toBe(true);
      expect(releases[i - 1]!.date >= releases[i]!.date).toBe(true);
    }
    for (const name of ['Unreleased', ...releases.map((r) => r.version)]) expect(changelog).toMatch(new RegExp(`^\\[${name.replace(/\./g, '\\.')}\\]: https://`, 'm'));
  });

  it('sorts each release into the sections Keep a Changelog names', () => {
    const sections = [...changelog.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.filter((s) => !['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(s))).toEqual([]);
  });
});
