import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { buildProgram, checkInvocation, findInvocations, shellWords } from './cli-args.js';

const ROOT = join(import.meta.dirname, '..', '..');
const GITHUB = join(ROOT, 'examples', 'ci', 'github-actions.yml');
const GITLAB = join(ROOT, 'examples', 'ci', 'gitlab-ci.yml');
const MARKER = '<!-- monsync-plan -->';
const ACTION = join(ROOT, 'action.yml');
const COMPONENT = join(ROOT, 'templates', 'monsync.yml');

/** The arguments monsync's action or component runs for `command` and `paths` (their `case` table). */
function tableCall(script: string, command: string, paths: string): string[] {
  const m = new RegExp(`^\\s*'?${command.replace(/[-]/g, '\\$&')}'?\\) cmd=\\(([^)]*)\\) ;;$`, 'm').exec(script);
  if (!m) throw new Error(`no command ${command} in the table`);
  return shellWords(m[1]!).flatMap((w) => (w === '${paths[@]}' ? paths.split(/\s+/) : [w]));
}

/** The plan the recipe runs through the action (GitHub) or the component (GitLab). */
function planCall(file: string): string[] {
  const recipe = load(file);
  if (file === GITHUB) {
    const step = (recipe.jobs.plan.steps as Obj[]).find((s) => String(s.uses ?? '').startsWith('your-org/monsync@'))!;
    const action = load(ACTION);
    return tableCall(action.runs.steps[0].run, step.with.command, step.with.paths);
  }
  const include = (recipe.include as Obj[]).find((i) => String(i.component ?? '').includes('/your-org/monsync/monsync@'))!;
  const script = readFileSync(COMPONENT, 'utf8');
  return tableCall(script, include.inputs.command, include.inputs.paths);
}

type Obj = Record<string, any>;

function load(file: string): Obj {
  const doc = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: true });
  expect(doc.errors.map(String)).toEqual([]);
  expect(doc.warnings.map(String)).toEqual([]);
  return doc.toJS() as Obj;
}

function githubScripts(wf: Obj): string[] {
  return Object.values(wf.jobs as Obj).flatMap((job: Obj) => (job.steps as Obj[]).flatMap((s) => (typeof s.run === 'string' ? [s.run] : [])));
}

function gitlabScripts(ci: Obj): string[] {
  const out: string[] = [];
  for (const job of Object.values(ci)) {
    if (!job || typeof job !== 'object' || Array.isArray(job)) continue;
    for (const key of ['before_script', 'script', 'after_script']) {
      const v = (job as Obj)[key];
      if (Array.isArray(v)) out.push(...v.filter((s): s is string => typeof s === 'string'));
      else if (typeof v === 'string') out.push(v);
    }
  }
  return out;
}

describe('the command checker', () => {
  const program = buildProgram();
  it('splits shell words and stops at redirections', () => {
    expect(shellWords(`plan "my dir/" --format markdown > plan.md 2> plan.err`)).toEqual(['plan', 'my dir/', '--format', 'markdown']);
    expect(shellWords(`apply x --auto-approve && echo done`)).toEqual(['apply', 'x', '--auto-approve']);
  });
  it('finds npx monsync calls, not other mentions of monsync', () => {
    const found = findInvocations(['echo "<!-- monsync-plan -->"\nnpx monsync plan a \\\n  --detailed-exitcode\nnode x.js monsync-note']);
    expect(found.map((f) => f.argv)).toEqual([['plan', 'a', '--detailed-exitcode']]);
  });
  it('rejects unknown commands and flags and flags missing their value', () => {
    expect(checkInvocation(program, ['deploy'])).toEqual([expect.stringContaining('unknown command "deploy"')]);
    expect(checkInvocation(program, ['plan', 'x', '--colour'])).toEqual(['plan: unknown option --colour']);
    expect(checkInvocation(program, ['plan', '--format'])).toEqual(['plan: option --format needs a value']);
    expect(checkInvocation(program, ['apply', '--auto-approve=yes'])).toEqual(['apply: option --auto-approve takes no value']);
    expect(checkInvocation(program, ['plan', 'monitoring/', '--format', 'markdown', '--detailed-exitcode'])).toEqual([]);
  });
});

describe.each([
  ['GitHub Actions', GITHUB, githubScripts],
  ['GitLab CI', GITLAB, gitlabScripts],
] as const)('%s recipe', (_name, file, scripts) => {
  const program = buildProgram();

  it('is valid YAML whose every monsync command exists with those flags', () => {
    const invocations = findInvocations(scripts(load(file)));
    expect(invocations.length).toBeGreaterThanOrEqual(3);
    for (const inv of invocations) expect({ line: inv.line, problems: checkInvocation(program, inv.argv) }).toEqual({ line: inv.line, problems: [] });
  });

  it('validates, plans as markdown with the exit code, and applies without a prompt', () => {
    const calls = findInvocations(scripts(load(file))).map((i) => i.argv);
    expect(calls).toContainEqual(['validate', 'monitoring/']);
    // The plan: through monsync's action or component, with the recipe's inputs.
    const plan = planCall(file);
    expect(plan).toEqual(['plan', 'monitoring/', '--format', 'markdown', '--detailed-exitcode']);
    expect(checkInvocation(program, plan)).toEqual([]);
    expect(calls).toContainEqual(['apply', 'monitoring/', '--auto-approve']);
  });

  it("finds its previous comment by its own marker (the markdown plan's, with the job's identity) and its own user (in the action or component it plans with)", () => {
    const text = readFileSync(file === GITHUB ? ACTION : COMPONENT, 'utf8');
    expect(text).toContain(`${MARKER.replace(' -->', '')} $identity -->`);
    expect(text).toContain('startsWith(`${marker}\\n`)');
    expect(text).toMatch(file === GITHUB ? /mine\(c\.user\?\.login\)/ : /n\.author\?\.id === me/);
  });
});

describe('GitHub Actions recipe', () => {
  const wf = load(GITHUB);
  it('plans on pull requests and applies on pushes to main, one apply at a time', () => {
    expect(wf.on.pull_request).toBeDefined();
    expect(wf.on.push.branches).toEqual(['main']);
    expect(wf.jobs.plan.if).toContain("'pull_request'");
    expect(wf.jobs.plan.permissions['pull-requests']).toBe('write');
    expect(wf.jobs.apply.if).toContain("github.ref == 'refs/heads/main'");
    expect(wf.jobs.apply.concurrency).toEqual({ group: 'monsync-apply', 'cancel-in-progress': false });
  });
  it('passes the credentials from secrets', () => {
    for (const name of ['MONSYNC_URL', 'MONSYNC_USERNAME', 'MONSYNC_PASSWORD', 'MONSYNC_CLIENT_ID', 'MONSYNC_CLIENT_SECRET']) {
      expect(wf.env[name]).toBe(`\${{ secrets.${name} }}`);
    }
  });
  it("updates the comment it finds instead of adding another (monsync's action)", () => {
    const step = (load(ACTION).runs.steps as Obj[]).find((s) => String(s.uses ?? '').startsWith('actions/github-script@'));
    expect(step?.with.script).toContain('updateComment');
    expect(step?.with.script).toContain('createComment');
  });
});

describe('GitLab CI recipe', () => {
  const ci = load(GITLAB);
  it('plans in merge request pipelines and applies on the default branch under a resource group', () => {
    // when: always: the note is replaced even when the validate job failed (it then says so).
    expect(ci['monsync-plan'].rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"', when: 'always' }]);
    expect(ci['monsync-apply'].rules[0].if).toContain('$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH');
    expect(ci['monsync-apply'].resource_group).toBe('monsync-account');
  });
  it("writes the note through the merge request notes API (monsync's component)", () => {
    const script = readFileSync(COMPONENT, 'utf8');
    expect(script).toContain('/merge_requests/${env.CI_MERGE_REQUEST_IID}/notes');
    expect(script).toContain("'PRIVATE-TOKEN'");
    expect(script).toContain("method: previous ? 'PUT' : 'POST'");
  });
});

describe('every recipe', () => {
  const files = ['github-actions.yml', 'github-drift.yml', 'gitlab-ci.yml', 'gitlab-drift.yml'].map((f) => join(ROOT, 'examples', 'ci', f));

  it("says how README installs monsync, never `npm install -D monsync` (a package of that name on the registry is not this one)", () => {
    // Every recipe, the maintenance and report ones too.
    const all = readdirSync(join(ROOT, 'examples', 'ci')).filter((f) => f.endsWith('.yml')).map((f) => join(ROOT, 'examples', 'ci', f));
    expect(all.length).toBeGreaterThanOrEqual(10);
    for (const file of all) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/npm install -D monsync\b/);
      if (text.includes('devDependencies')) expect(text.replace(/\n# /g, ' '), file).toContain(`"In your own repository"`);
    }
    for (const file of [GITHUB, GITLAB]) expect(readFileSync(file, 'utf8'), file).toContain(`README's "In your own repository"`);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('### In your own repository');
  });

  it('starts the rehearsal replica with node, so the pid it stops is the emulator (npx would leave it running)', () => {
    for (const file of [GITHUB, GITLAB]) {
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('node node_modules/monsync/bin/monsync.js emulator --clone-from');
      expect(text).not.toMatch(/npx monsync emulator/);
    }
  });
});

describe('the multi-account recipes (issue 29)', () => {
  const GH = join(ROOT, 'examples', 'ci', 'github-accounts.yml');
  const GL = join(ROOT, 'examples', 'ci', 'gitlab-accounts.yml');
  const program = buildProgram();

  it.each([
    ['GitHub', GH, githubScripts],
    ['GitLab', GL, gitlabScripts],
  ] as const)('%s: valid YAML whose every monsync command exists with those flags', (_name, file, scripts) => {
    const invocations = findInvocations(scripts(load(file)));
    expect(invocations.length).toBeGreaterThanOrEqual(3);
    for (const inv of invocations) expect({ line: inv.line, problems: checkInvocation(program, inv.argv) }).toEqual({ line: inv.line, problems: [] });
  });

  it('GitHub: one plan of every account on a pull request, staging applied before production on main, a drift job per account, credentials per account from secrets', () => {
    const wf = load(GH);
    const step = (wf.jobs.plan.steps as Obj[]).find((s) => String(s.uses ?? '').startsWith('your-org/monsync@'))!;
    const accounts = String(step.with.account).split(/\s+/).flatMap((n) => ['--account', n]);
    const plan = [...tableCall(load(ACTION).runs.steps[0].run, step.with.command, step.with.paths), ...accounts];
    expect(plan).toEqual(['plan', 'monsync.yaml', '--format', 'markdown', '--detailed-exitcode', '--account', 'staging', '--account', 'production']);
    expect(checkInvocation(program, plan)).toEqual([]);
    expect(wf.jobs.plan.if).toContain("'pull_request'");
    const calls = findInvocations(githubScripts(wf)).map((i) => i.argv);
    expect(calls).toContainEqual(['apply', '--account', 'staging', '--auto-approve']);
    expect(calls).toContainEqual(['apply', '--account', 'production', '--auto-approve']);
    expect(wf.jobs['apply-production'].needs).toBe('apply-staging');
    expect(wf.jobs.drift.strategy.matrix.account).toEqual(['staging', 'production']);
    expect(wf.jobs.drift.strategy['fail-fast']).toBe(false);
    for (const account of ['STAGING', 'PRODUCTION']) {
      for (const v of ['URL', 'USERNAME', 'PASSWORD']) expect(wf.env[`MONSYNC_${account}_${v}`]).toBe(`\${{ secrets.MONSYNC_${account}_${v} }}`);
    }
    expect(wf.env.MONSYNC_URL).toBeUndefined();
  });

  it('GitLab: one note for every account, staging applied in a stage before production, a drift job per account', () => {
    const ci = load(GL);
    const include = (ci.include as Obj[]).find((i) => String(i.component ?? '').includes('/your-org/monsync/monsync@'))!;
    expect(include.inputs).toMatchObject({ command: 'plan', paths: 'monsync.yaml', account: 'staging production' });
    expect(ci.stages.indexOf('apply-staging')).toBeLessThan(ci.stages.indexOf('apply-production'));
    expect(ci['monsync-apply-staging'].script).toEqual(['npx monsync apply --account staging --auto-approve']);
    expect(ci['monsync-apply-production'].script).toEqual(['npx monsync apply --account production --auto-approve']);
    expect(ci['monsync-drift'].parallel.matrix).toEqual([{ ACCOUNT: ['staging', 'production'] }]);
  });
});
