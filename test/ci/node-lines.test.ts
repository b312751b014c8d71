/**
 * The Node.js lines monsync supports (22 from 22.12, 24, 26; issue 43) and what the recipes, the action and the
 * component run on. GitHub runs JavaScript actions on Node 24 since 2026-06-16 and removed Node 20 from its
 * runners on 2026-09-23: an action whose `runs.using` is node20 no longer runs there. Which major of each action
 * first runs on node24 was read from the action's own action.yml at its tags (docs/ci.md, "Node.js lines and
 * action versions"); a `uses:` of an action not in that table fails here until someone reads its action.yml.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/**
 * First major whose action.yml at its tag says `runs.using: node24`, read from the actions' repositories on
 * 2026-12-07 (checkout v5.0.0 2025-08-11, setup-node v5.0.0 2025-09-03, github-script v8.0.0 2025-09-04,
 * upload-artifact v6.0.0 2025-12-12: its v5 was still node20).
 */
const FIRST_NODE24_MAJOR: Record<string, number> = {
  'actions/checkout': 5,
  'actions/setup-node': 5,
  'actions/github-script': 8,
  'actions/upload-artifact': 6,
};

const SUPPORTED = ['22', '24', '26'];
const RECOMMENDED = '24';

const RECIPES = readdirSync(join(ROOT, 'examples', 'ci')).map((f) => `examples/ci/${f}`);
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
/** Everything a user copies a `uses:`, a `node-version` or an image from. */
const FILES = [...RECIPES, 'README.md', 'CONTRIBUTING.md', ...DOCS, 'action.yml', 'templates/monsync.yml'];

describe('the recipes, the action and the component', () => {
  it('use every action at a major that runs on Node 24', () => {
    const uses = FILES.flatMap((file) => [...read(file).matchAll(/uses: *['"]?(actions\/[\w-]+)@([^\s'"`]+)/g)].map((m) => ({ file, action: m[1]!, ref: m[2]! })));
    expect(uses.length).toBeGreaterThan(15);
    const old = uses.filter(({ action, ref }) => {
      const first = FIRST_NODE24_MAJOR[action];
      const major = /^v(\d+)$/.exec(ref);
      return first === undefined || major === null || Number(major[1]) < first;
    });
    expect(old).toEqual([]);
  });

  it('set up Node 24 in every GitHub job (node-version) and run every GitLab job in a node:24 image', () => {
    const versions = FILES.flatMap((file) => [...read(file).matchAll(/node-version: *['"]?([^\s,'"}]+)/g)].map((m) => ({ file, version: m[1]! })));
    expect(versions.length).toBeGreaterThan(8);
    expect(versions.filter((v) => v.version !== RECOMMENDED)).toEqual([]);
    const images = FILES.flatMap((file) => [...read(file).matchAll(/(?:image:|default:|FROM) *['"]?node:([^\s'"]+)/g)].map((m) => ({ file, image: m[1]! })));
    expect(images.length).toBeGreaterThan(5);
    expect(images.filter((i) => !i.image.startsWith(`${RECOMMENDED}`) || !SUPPORTED.includes(i.image.split('-')[0]!))).toEqual([]);
  });

  it("give the GitLab component's `image` input a default of node:24", () => {
    const spec = parse(read('templates/monsync.yml').split('\n---\n')[0]!) as { spec: { inputs: { image: { default: string; description: string } } } };
    expect(spec.spec.inputs.image.default).toBe(`node:${RECOMMENDED}`);
    expect(spec.spec.inputs.image.description).toContain('Node.js 22.12, 24 or 26');
  });
});

describe('the supported Node.js lines', () => {
  it("are package.json's engines: 22 from 22.12, 24 and later, and Node 20 (end of life) only from 20.19 while the suite still passes on it", () => {
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('^20.19 || ^22.12 || >=24');
  });

  it('are the lines scripts/node-lines.json pins for the suite', () => {
    const pins = JSON.parse(read('scripts/node-lines.json')) as { lines: Record<string, { version: string }> };
    expect(Object.keys(pins.lines)).toEqual(SUPPORTED);
    expect(Number(pins.lines['22']!.version.split('.')[1])).toBeGreaterThanOrEqual(12);
  });

  it('are what README, CONTRIBUTING and every doc say, recommending 24 or 26, and none of them offers Node 20', () => {
    for (const file of ['README.md', 'CONTRIBUTING.md', 'docs/ci.md', 'docs/exporter.md']) {
      expect(read(file), file).toContain('Node.js 22.12, 24 or 26');
    }
    for (const file of RECIPES) expect(read(file), file).toContain('Node.js 22.12, 24 or 26 (24 or 26 recommended)');
    expect(read('README.md')).toMatch(/24 or 26 recommended/);
    const offers20 = [...FILES, 'scripts/demo.js'].filter((file) => /Node(\.js)? *>?=? *20\.1\d|Node(\.js)? 20\.\d+ or newer|on Node 20;|node:20\b|node-version: *20\b/.test(read(file)));
    expect(offers20).toEqual([]);
  });

  it('say in CHANGELOG when Node 20 will be refused', () => {
    const changelog = read('CHANGELOG.md');
    expect(changelog).toMatch(/Node(\.js)? 20[^\n]*(refused|no longer installs)[^\n]*0\.8\.0|0\.8\.0[^\n]*refuse[^\n]*Node(\.js)? 20/);
  });
});

describe('a run of the suite on one line (npm run test:line, .ci/run)', () => {
  it('starts every node by name on the line vitest runs on: `node`, `node` from bash, and the node npm runs on', () => {
    const version = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).stdout.trim();
    expect(version('node', ['-p', 'process.version'])).toBe(process.version);
    expect(version('bash', ['-c', 'node -p process.version'])).toBe(process.version);
    expect(`v${(JSON.parse(version('npm', ['version', '--json'])) as { node: string }).node}`).toBe(process.version);
  });
});

describe('docs/ci.md', () => {
  it('names the action majors the recipes use and why, and what changes for a repository still on Node 20 actions', () => {
    const ci = read('docs/ci.md');
    const section = ci.slice(ci.indexOf('## Node.js lines and action versions'));
    expect(section.length).toBeGreaterThan(500);
    const used = new Set(RECIPES.flatMap((file) => [...read(file).matchAll(/uses: *(actions\/[\w-]+@v\d+)/g)].map((m) => m[1]!)));
    expect(used.size).toBe(4);
    for (const u of used) expect(section, u).toContain(`\`${u}\``);
    expect(section).toContain('runs.using: node24');
    expect(section).toMatch(/still on Node 20 actions/);
  });
});
