/**
 * Runs the plan steps of the CI recipes for real: the recipes plan with monsync's GitHub Action
 * (action.yml, run by ./action-runner.ts with the recipe's `with:`) and GitLab component
 * (templates/monsync.yml with the recipe's `inputs:`, by ./gitlab-component.ts), their shell under
 * bash (`npx` shimmed to this checkout's bin/monsync.js), monsync against the emulator, and the
 * comment / note code against in-memory stand-ins of the GitHub and GitLab APIs. Posting twice must
 * update, not duplicate.
 */
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { clockEnv, startOfMinute } from '../helpers/clock.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { startDns } from '../helpers/mail-servers.js';
import { BIN, ROOT, buildDist, cliEnv } from './build.js';
import { runAction } from './action-runner.js';
import { gitlabJob } from './gitlab-component.js';
import { bash as runBash, recipeProject, withShim } from './shell.js';

const MARKER = '<!-- monsync-plan -->';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
type Obj = Record<string, any>;

let emu: TestEmulator;
let project: string;

beforeAll(async () => {
  await buildDist();
  emu = await startTestEmulator({ seed: 'default' });
  // A user's repository: the configuration in monitoring/, `npx monsync` runs the installed CLI.
  project = await recipeProject(join(ROOT, 'examples', 'small'), BIN);
}, 240_000);

afterAll(async () => {
  await emu?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

beforeEach(async () => {
  await emu.control.reset('default');
  await rm(join(project, 'monsync-report.md'), { force: true });
});

type Comment = { id: number; body: string; user: { login: string; type: string } };
/** The comment step's marker: monsync's, with a digest of the step's directory, paths and accounts. */
const STEP_MARKER = /^<!-- monsync-plan [0-9a-f]{12} -->\n/;

/**
 * actions/github-script's `github` and `context`, over an in-memory list of comments, for a token
 * whose user is `me`: by default the job token's bot (GraphQL's viewer names it without "[bot]", REST's
 * comments with it; REST's /user refuses an installation token), or a person's personal token.
 */
function fakeGitHub(comments: Comment[], me: { login: string; type: 'Bot' | 'User' } = { login: 'github-actions', type: 'Bot' }) {
  let next = 100;
  const calls: string[] = [];
  const author = { login: me.type === 'Bot' ? `${me.login}[bot]` : me.login, type: me.type };
  const issues = {
    listComments: async () => ({ data: comments }),
    createComment: async ({ body }: { body: string }) => {
      calls.push('create');
      comments.push({ id: next++, body, user: author });
    },
    updateComment: async ({ comment_id, body }: { comment_id: number; body: string }) => {
      calls.push(`update ${comment_id}`);
      comments.find((c) => c.id === comment_id)!.body = body;
    },
  };
  const users = {
    getAuthenticated: async () => {
      if (me.type === 'Bot') throw new Error('Resource not accessible by integration');
      return { data: { login: me.login } };
    },
  };
  const graphql = async (query: string) => {
    if (!/viewer\s*\{\s*login\s*\}/.test(query)) throw new Error(`unexpected query ${query}`);
    return { viewer: { login: me.login } };
  };
  const github = { graphql, rest: { issues, users }, paginate: async (fn: (p: unknown) => Promise<{ data: unknown[] }>, p: unknown) => (await fn(p)).data };
  const context = { repo: { owner: 'o', repo: 'r' }, issue: { number: 7 } };
  return { github, context, calls };
}

function env(extra: Record<string, string> = {}, url = emu.url): NodeJS.ProcessEnv {
  return withShim(project, cliEnv(url, extra));
}

function bash(script: string, e: NodeJS.ProcessEnv, flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runBash(script, project, e, flags);
}

async function recipe(name: string): Promise<Obj> {
  return parse(await readFile(join(ROOT, 'examples', 'ci', name), 'utf8')) as Obj;
}

describe('GitHub Actions recipe, plan job', () => {
  let wf: Obj;
  beforeAll(async () => {
    wf = await recipe('github-actions.yml');
  });
  const step = (name: string) => (wf.jobs.plan.steps as Obj[]).find((s) => s.name === name)!;

  /** The recipe's Plan step: monsync's action, pinned by the release, with the recipe's inputs. */
  async function runPlanStep(e: NodeJS.ProcessEnv, fake: ReturnType<typeof fakeGitHub>, event: Obj = { pull_request: { number: 7 } }) {
    const plan = step('Plan');
    expect(plan.uses).toBe(`your-org/monsync@v${pkg.version}`);
    const summary = join(project, 'summary.md');
    await writeFile(summary, '');
    const run = await runAction(join(ROOT, 'action.yml'), {
      inputs: plan.with as Record<string, string>,
      workspace: project,
      env: { ...e, GITHUB_STEP_SUMMARY: summary },
      github: { event_name: event.pull_request ? 'pull_request' : 'push', event, token: 'job-token' },
      script: fake,
    });
    return { ...run, summary: await readFile(summary, 'utf8') };
  }

  it('comments the markdown plan once, then updates that comment, and puts it in the job summary', async () => {
    const comments: Comment[] = [{ id: 1, body: `Looks fine to me. ${MARKER}`, user: { login: 'bob', type: 'User' } }];
    const fake = fakeGitHub(comments);
    // The comment holds "plan made <minute>": one reading of the clock, taken here, for both runs
    // (each started at the start of this minute), so the two bodies agree however slow the machine.
    const clock = clockEnv(startOfMinute(Date.now()));
    const first = await runPlanStep(env(clock), fake);
    expect(first.failed, first.log).toBeUndefined();
    expect(first.steps.run).toMatchObject({ exitcode: '2', changes: 'true', failed: 'false' });
    const md = await readFile(first.steps.run!.report!, 'utf8');
    expect(md).toMatch(STEP_MARKER);
    expect(md).not.toContain(MARKER);
    expect(first.summary).toBe(md);
    await runPlanStep(env(clock), fake);
    expect(fake.calls).toEqual(['create', 'update 100']);
    expect(comments).toHaveLength(2);
    expect(comments[0]!.body).toBe(`Looks fine to me. ${MARKER}`);
    expect(comments[1]!.body).toBe(md);
  }, 60_000);

  it('puts the error into the comment and fails the step when the plan cannot be made', async () => {
    const comments: Comment[] = [];
    const run = await runPlanStep(env({}, 'http://127.0.0.1:9'), fakeGitHub(comments));
    expect(run.steps.run).toMatchObject({ exitcode: '1', failed: 'true' });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(new RegExp(`^<!-- monsync-plan [0-9a-f]{12} -->\\n### monsync plan failed( at \`[0-9a-f]{7}\`)?\\n\\nThe plan could not be made, so no plan stands for this commit\\. Why:\\n\\n\`\`\`\\n[\\s\\S]*Error: `));
    expect(run.failed?.name).toBe('Fail when monsync failed');
    expect(run.summary).toContain('### monsync plan failed');
  }, 60_000);

  it('makes the plan and its comment even when the Validate step failed', async () => {
    // A failed Validate step must not leave the previous push's comment up as if it still stood.
    expect(step('Plan').if).toBe('${{ !cancelled() }}');
    expect(step('Validate').id).toBe('validate');
  });

  it('with a personal token (a User, not a Bot) updates its own comment on the next push, never adding another', async () => {
    const comments: Comment[] = [];
    const fake = fakeGitHub(comments, { login: 'alice', type: 'User' });
    await runPlanStep(env(), fake);
    await runPlanStep(env(), fake);
    expect(fake.calls).toEqual(['create', 'update 100']);
    expect(comments).toHaveLength(1);
  }, 60_000);

  it("never replaces a comment someone else wrote, even one starting with this step's marker", async () => {
    const comments: Comment[] = [];
    const fake = fakeGitHub(comments);
    await runPlanStep(env(), fake);
    const marker = comments[0]!.body.split('\n')[0]!;
    comments.unshift({ id: 1, body: `${marker}\n## ✅ No changes`, user: { login: 'other-app[bot]', type: 'Bot' } });
    await runPlanStep(env(), fake);
    expect(fake.calls).toEqual(['create', 'update 100']);
    expect(comments[0]!.body).toBe(`${marker}\n## ✅ No changes`);
  }, 60_000);

  it('keeps one comment per plan step: two steps planning other paths on one pull request do not replace each other', async () => {
    const comments: Comment[] = [];
    const fake = fakeGitHub(comments);
    const other = { ...(step('Plan').with as Record<string, string>), paths: 'monitoring/monsync.yaml' };
    const runWith = async (inputs: Record<string, string>) =>
      runAction(join(ROOT, 'action.yml'), { inputs, workspace: project, env: env(), github: { event_name: 'pull_request', event: { pull_request: { number: 7 } }, token: 't' }, script: fake });
    await runWith(step('Plan').with as Record<string, string>);
    await runWith(other);
    await runWith(step('Plan').with as Record<string, string>);
    await runWith(other);
    expect(fake.calls).toEqual(['create', 'create', 'update 100', 'update 101']);
    expect(comments[0]!.body.split('\n')[0]).not.toBe(comments[1]!.body.split('\n')[0]);
  }, 120_000);

  it('quotes a failed Validate step at the top of the comment, in a fence its text cannot close', async () => {
    const validate = step('Validate').run as string;
    expect(validate).toContain('cp validate.out validate.failed');
    const file = join(project, 'monitoring', 'monsync.yaml');
    const before = await readFile(file, 'utf8');
    const comments: Comment[] = [];
    try {
      await writeFile(file, before.replace('version: 1\n', 'version:    1\n'));
      const v = await bash(validate, env(), ['-e']);
      expect(v.code).toBe(1);
      const run = await runPlanStep(env(), fakeGitHub(comments));
      expect(run.steps.run).toMatchObject({ exitcode: '2' });
      const body = comments[0]!.body;
      expect(body).toMatch(/^<!-- monsync-plan [0-9a-f]{12} -->\n### ❌ Checks failed before this step\n/);
      expect(body).toContain('-version:    1');
      // Whatever an earlier step wrote cannot close the fence and post a heading, a mention or an HTML comment.
      await writeFile(join(project, 'validate.failed'), 'a\n```\n## ✅ No changes @org\n<!--\n');
      const hostile = await runPlanStep(env(), fakeGitHub(comments));
      expect(hostile.steps.run).toMatchObject({ exitcode: '2' });
      expect(comments[0]!.body).toContain('\n````\na\n```\n## ✅ No changes @org\n<!--\n````\n');
    } finally {
      await writeFile(file, before);
      await rm(join(project, 'validate.failed'), { force: true });
      await rm(join(project, 'validate.out'), { force: true });
    }
  }, 60_000);

  it('writes no comment outside a pull request', async () => {
    const comments: Comment[] = [];
    const run = await runPlanStep(env(), fakeGitHub(comments), {});
    expect(run.ran).toEqual(['Run monsync']);
    expect(comments).toEqual([]);
  }, 60_000);

  it('tests the mail path of the changed monitors, and shows an inconclusive result as a notice without failing', async () => {
    // The runner's case: DNS answers, no mail server is reached. Here the MX hosts resolve to 127.0.0.1,
    // which the recipe's `monsync test` (rightly, without --allow-private) does not even connect to;
    // 127.0.0.1:25 is closed too, so either way nothing is reached and the result is inconclusive.
    const port25 = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port: 25 }, () => (s.destroy(), resolve(true))).on('error', () => resolve(false));
    });
    expect(port25, 'this test needs 127.0.0.1:25 closed').toBe(false);
    const dns = await startDns({ 'example.com': { MX: [{ exchange: 'mx.example.com', priority: 10 }] }, 'mx.example.com': { A: ['127.0.0.1'] }, 'mx2.example.com': { A: ['127.0.0.1'] } });
    try {
      const r = await bash(step('Test the mail path').run, env({ MONSYNC_DNS_SERVERS: dns.server }), ['-e']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^\? inconclusive +mx-primary/m);
      expect(r.stdout).toMatch(/^\? inconclusive +mx-backup/m);
      expect(r.stdout).toContain('::notice title=monsync test inconclusive::');
      // A DNS finding still fails the job.
      await dns.close();
      const broken = await startDns({ 'mx2.example.com': { A: ['127.0.0.1'] } });
      try {
        const f = await bash(step('Test the mail path').run, env({ MONSYNC_DNS_SERVERS: broken.server }), ['-e']);
        expect(f.code).toBe(1);
        expect(f.stdout).toContain('error monitor/unresolvable');
      } finally {
        await broken.close();
      }
    } finally {
      await dns.close().catch(() => undefined);
    }
  }, 60_000);
});

describe('GitLab CI recipe, plan job', () => {
  let server: Server;
  let api: string;
  // The note token's user is 900 (a project access token's bot); everyone else is somebody else.
  const notes: { id: number; body: string; system: boolean; author: { id: number } }[] = [];
  const seen: { method: string; token: string | undefined }[] = [];

  beforeAll(async () => {
    let next = 500;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ method: req.method!, token: req.headers['private-token'] as string | undefined });
        const url = new URL(req.url!, 'http://x');
        if (url.pathname === '/api/v4/user' && req.headers['private-token'] === 'note-token') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ id: 900, username: 'project_42_bot' }));
        }
        const m = /^\/api\/v4\/projects\/42\/merge_requests\/7\/notes(?:\/(\d+))?$/.exec(url.pathname);
        const send = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (!m || req.headers['private-token'] !== 'note-token') return send(404, { message: '404 Not found' });
        if (req.method === 'GET') {
          const page = Number(url.searchParams.get('page') ?? 1);
          const per = Number(url.searchParams.get('per_page') ?? 20);
          return send(200, notes.slice((page - 1) * per, page * per));
        }
        const text = (JSON.parse(body) as { body: string }).body;
        if (req.method === 'POST' && !m[1]) {
          notes.push({ id: next++, body: text, system: false, author: { id: 900 } });
          return send(201, notes.at(-1));
        }
        const note = notes.find((n) => n.id === Number(m[1]));
        if (req.method === 'PUT' && note) {
          note.body = text;
          return send(200, note);
        }
        return send(404, { message: '404 Not found' });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`;
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
  });

  /** The recipe's job monsync-plan: the component it includes, with the recipe's inputs and rules. */
  async function runPlanJob(e: NodeJS.ProcessEnv) {
    const job = await gitlabJob(await recipe('gitlab-ci.yml'), 'monsync-plan', ROOT, pkg.version);
    // when: always: the note is made even after a failed validate job, never left standing from an earlier push.
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"', when: 'always' }]);
    // The runner runs a job's script items in one shell with errexit and pipefail, the job's variables set.
    return bash((job.script as string[]).join('\n'), { ...e, ...job.variables }, ['-e', '-o', 'pipefail']);
  }

  const gitlabEnv = (url?: string) =>
    env({ CI_API_V4_URL: api, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7', MONSYNC_NOTE_TOKEN: 'note-token' }, url);

  it('writes the plan as one note and updates it on the next pipeline', async () => {
    // Someone quoting the marker, and a system note, are never edited; 120 notes test paging.
    for (let i = 0; i < 119; i++) notes.push({ id: i + 1, body: i === 3 ? `see ${MARKER}` : `comment ${i}`, system: i === 5, author: { id: i } });
    const first = await runPlanJob(gitlabEnv());
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain('Created the plan note on merge request !7.');
    const second = await runPlanJob(gitlabEnv());
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Updated the plan note on merge request !7.');

    const ours = notes.filter((n) => STEP_MARKER.test(n.body));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toBe(await readFile(join(project, 'monsync-report.md'), 'utf8'));
    expect(notes[3]!.body).toBe(`see ${MARKER}`);
    expect(seen.every((s) => s.token === 'note-token')).toBe(true);
    expect(seen.filter((s) => s.method !== 'GET').map((s) => s.method)).toEqual(['POST', 'PUT']);
  }, 60_000);

  it("never takes a participant's note that starts with the job's marker: its own note is updated, the other left as it is", async () => {
    const marker = notes.find((n) => STEP_MARKER.test(n.body))!.body.split('\n')[0]!;
    // Written before the real one, so a search by marker alone finds it first.
    notes.unshift({ id: 1000, body: `${marker}\nNo changes`, system: false, author: { id: 17 } });
    const r = await runPlanJob(gitlabEnv());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Updated the plan note on merge request !7.');
    expect(notes[0]!.body).toBe(`${marker}\nNo changes`);
    expect(notes.filter((n) => n.author.id === 900)).toHaveLength(1);
    expect(notes.find((n) => n.author.id === 900)!.body).toBe(await readFile(join(project, 'monsync-report.md'), 'utf8'));
    notes.shift();
  }, 60_000);

  it("quotes what the validate job wrote to validate.failed at the top of the note, in a fence its text cannot close", async () => {
    await writeFile(join(project, 'validate.failed'), 'a\n```\n## ✅ No changes @org\n');
    try {
      const r = await runPlanJob(gitlabEnv());
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const report = await readFile(join(project, 'monsync-report.md'), 'utf8');
      expect(report).toMatch(/^<!-- monsync-plan [0-9a-f]{12} -->\n### ❌ Checks failed before this job\n/);
      expect(report).toContain('\n````\na\n```\n## ✅ No changes @org\n````\n');
    } finally {
      await rm(join(project, 'validate.failed'), { force: true });
    }
  }, 60_000);

  it('notes the error and fails the job when the plan cannot be made', async () => {
    const r = await runPlanJob(gitlabEnv('http://127.0.0.1:9'));
    expect(r.code).toBe(1);
    const ours = notes.filter((n) => STEP_MARKER.test(n.body));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toMatch(/### monsync plan failed( at `[0-9a-f]+`)?\n\nThe plan could not be made, so no plan stands for this commit\. Why:/);
  }, 60_000);

  it('without a note token keeps the plan in the log and does not fail', async () => {
    const e = gitlabEnv();
    delete e.MONSYNC_NOTE_TOKEN;
    const before = seen.length;
    const r = await runPlanJob(e);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('MONSYNC_NOTE_TOKEN is not set');
    expect(r.stdout).toContain(MARKER);
    expect(seen.length).toBe(before);
  }, 60_000);
});
