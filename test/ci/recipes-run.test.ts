/**
 * Runs the plan steps of the CI recipes for real: their shell under bash (`npx` shimmed to this
 * checkout's bin/monsync.js), monsync against the emulator, and the comment / note code against
 * in-memory stand-ins of the GitHub and GitLab APIs. Posting twice must update, not duplicate.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { BIN, ROOT, buildDist, cliEnv } from './build.js';
import { bash as runBash, recipeProject, withShim } from './shell.js';

const MARKER = '<!-- monsync-plan -->';
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
  await rm(join(project, 'plan.md'), { force: true });
  await rm(join(project, 'plan.err'), { force: true });
});

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

  /** actions/github-script's `github` and `context`, over an in-memory list of comments. */
  function fakeGitHub(comments: { id: number; body: string; user: { type: string } }[]) {
    let next = 100;
    const calls: string[] = [];
    const issues = {
      listComments: async () => ({ data: comments }),
      createComment: async ({ body }: { body: string }) => {
        calls.push('create');
        comments.push({ id: next++, body, user: { type: 'Bot' } });
      },
      updateComment: async ({ comment_id, body }: { comment_id: number; body: string }) => {
        calls.push(`update ${comment_id}`);
        comments.find((c) => c.id === comment_id)!.body = body;
      },
    };
    const github = { rest: { issues }, paginate: async (fn: (p: unknown) => Promise<{ data: unknown[] }>, p: unknown) => (await fn(p)).data };
    const context = { repo: { owner: 'o', repo: 'r' }, issue: { number: 7 } };
    return { github, context, calls };
  }

  async function runPlanStep(e: NodeJS.ProcessEnv): Promise<{ code: number; output: string; stdout: string; stderr: string }> {
    const out = join(project, 'github-output');
    await writeFile(out, '');
    // GitHub runs `run:` with `bash -e {0}`.
    const r = await bash(step('Plan').run, { ...e, GITHUB_OUTPUT: out }, ['-e']);
    return { ...r, output: await readFile(out, 'utf8') };
  }

  async function runCommentStep(fake: ReturnType<typeof fakeGitHub>): Promise<void> {
    const script = step('Comment the plan on the pull request').with.script as string;
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
    const require = createRequire(join(project, 'x.js'));
    const cwd = process.cwd();
    process.chdir(project);
    try {
      await new AsyncFunction('github', 'context', 'require', script)(fake.github, fake.context, require);
    } finally {
      process.chdir(cwd);
    }
  }

  it('comments the markdown plan once, then updates that comment', async () => {
    const plan = await runPlanStep(env());
    expect({ code: plan.code, stderr: plan.stderr }).toMatchObject({ code: 0 });
    expect(plan.output).toBe('exitcode=2\n');
    const md = await readFile(join(project, 'plan.md'), 'utf8');
    expect(md.startsWith(`${MARKER}\n`)).toBe(true);

    const comments = [{ id: 1, body: `Looks fine to me. ${MARKER}`, user: { type: 'User' } }];
    const fake = fakeGitHub(comments);
    await runCommentStep(fake);
    await runCommentStep(fake);
    expect(fake.calls).toEqual(['create', 'update 100']);
    expect(comments).toHaveLength(2);
    expect(comments[0]!.body).toBe(`Looks fine to me. ${MARKER}`);
    expect(comments[1]!.body).toBe(md);
  }, 60_000);

  it('puts the error into the comment when the plan cannot be made, naming the commit', async () => {
    const plan = await runPlanStep(env({ MONSYNC_COMMIT: 'abcdef0123456789abcdef0123456789abcdef01' }, 'http://127.0.0.1:9'));
    expect(plan.code).toBe(0);
    expect(plan.output).toBe('exitcode=1\n');
    const md = await readFile(join(project, 'plan.md'), 'utf8');
    expect(md).toMatch(new RegExp(`^${MARKER}\\n### monsync plan could not be made at \`abcdef0\`\\n\\nNo plan stands for this commit\\. Why:\\n\\n\`\`\`\\n[\\s\\S]*Error: `));
    expect(step('Fail when the plan could not be made').if).toBe("${{ !cancelled() && steps.plan.outputs.exitcode == '1' }}");
  }, 60_000);

  it('makes the plan and the comment even when the Validate step failed, and says in the comment what failed', async () => {
    // The steps run whatever happened before them (but a cancelled run).
    expect(step('Plan').if).toBe('${{ !cancelled() }}');
    expect(step('Comment the plan on the pull request').if).toBe('${{ !cancelled() }}');
    expect(step('Plan').env.VALIDATE).toBe('${{ steps.validate.outcome }}');
    expect(step('Validate').id).toBe('validate');

    const file = join(project, 'monitoring', 'monsync.yaml');
    const tidy = await readFile(file, 'utf8');
    try {
      await writeFile(file, tidy.replace('[ops-mail]', '[ ops-mail ]'));
      // GitHub runs `run:` with `bash -e {0}` (no pipefail unless the step sets it).
      const validate = await bash(step('Validate').run, env(), ['-e']);
      expect(validate.code).toBe(1);
      const plan = await runPlanStep(env({ VALIDATE: 'failure' }));
      expect(plan.output).toBe('exitcode=2\n');
      const md = await readFile(join(project, 'plan.md'), 'utf8');
      expect(md.startsWith(`${MARKER}\n### monsync plan`)).toBe(true);
      expect(md).toContain('**The Validate step failed** (`npx monsync fmt monitoring/` rewrites unformatted files):');
      expect(md).toContain('-    alert_destinations: [ ops-mail ]');
      expect(md).toContain('1 file not formatted');
    } finally {
      await writeFile(file, tidy);
      await rm(join(project, 'validate.out'), { force: true });
    }
  }, 60_000);
});

describe('GitLab CI recipe, plan job', () => {
  let server: Server;
  let api: string;
  const notes: { id: number; body: string; system: boolean }[] = [];
  const seen: { method: string; token: string | undefined }[] = [];

  beforeAll(async () => {
    let next = 500;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ method: req.method!, token: req.headers['private-token'] as string | undefined });
        const url = new URL(req.url!, 'http://x');
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
          notes.push({ id: next++, body: text, system: false });
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

  async function runPlanJob(e: NodeJS.ProcessEnv) {
    const ci = await recipe('gitlab-ci.yml');
    // The runner runs a job's script items in one shell with errexit and pipefail.
    return bash((ci['monsync-plan'].script as string[]).join('\n'), e, ['-e', '-o', 'pipefail']);
  }

  const gitlabEnv = (url?: string) =>
    env({ CI_API_V4_URL: api, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7', MONSYNC_NOTE_TOKEN: 'note-token' }, url);

  it('writes the plan as one note and updates it on the next pipeline', async () => {
    // Someone quoting the marker, and a system note, are never edited; 120 notes test paging.
    for (let i = 0; i < 119; i++) notes.push({ id: i + 1, body: i === 3 ? `see ${MARKER}` : `comment ${i}`, system: i === 5 });
    const first = await runPlanJob(gitlabEnv());
    expect({ code: first.code, stderr: first.stderr }).toMatchObject({ code: 0 });
    expect(first.stdout).toContain('Created the plan note on merge request !7.');
    const second = await runPlanJob(gitlabEnv());
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Updated the plan note on merge request !7.');

    const ours = notes.filter((n) => n.body.startsWith(MARKER));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toBe(await readFile(join(project, 'plan.md'), 'utf8'));
    expect(notes[3]!.body).toBe(`see ${MARKER}`);
    expect(seen.every((s) => s.token === 'note-token')).toBe(true);
    expect(seen.filter((s) => s.method !== 'GET').map((s) => s.method)).toEqual(['POST', 'PUT']);
  }, 60_000);

  it('notes the error and fails the job when the plan cannot be made', async () => {
    const r = await runPlanJob(gitlabEnv('http://127.0.0.1:9'));
    expect(r.code).toBe(1);
    const ours = notes.filter((n) => n.body.startsWith(MARKER));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toContain('### monsync plan could not be made');
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
