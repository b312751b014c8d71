/**
 * Runs a composite GitHub Action (action.yml) as the runner does, for tests: inputs with their
 * defaults, `${{ }}` expressions in `if`, `env` and `with` (the contexts inputs, steps, github, runner),
 * `run` steps under `bash --noprofile --norc -eo pipefail` (what `shell: bash` means) with their own
 * GITHUB_OUTPUT file, and `actions/github-script` steps as an async function over a stand-in `github`.
 * Only what monsync's action uses is supported; anything else throws, so a new construct is noticed.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bash } from './shell.js';

type Obj = Record<string, any>;

export interface ActionRun {
  /** Outputs of each step by id. */
  steps: Record<string, Record<string, string>>;
  /** Names of the steps that ran, in order. */
  ran: string[];
  /** The step that failed (non-zero exit or a throw), if any. */
  failed?: { name: string; code: number; stdout: string; stderr: string };
  /** stdout and stderr of every run step, in order. */
  log: string;
}

export interface ActionContext {
  inputs: Record<string, string>;
  /** The repository the job runs in (cwd of the steps). */
  workspace: string;
  env: NodeJS.ProcessEnv;
  github: Obj;
  /** actions/github-script's `github` and `context`. */
  script?: { github: unknown; context: unknown };
}

/** The value of an expression (no `${{ }}`) over the contexts. */
export function evaluate(expr: string, ctx: Obj): unknown {
  const refs: unknown[] = [];
  const js = expr
    .replace(/'([^']*)'/g, (_m, s: string) => {
      refs.push(s);
      return `__r[${refs.length - 1}]`;
    })
    .replace(/\b(inputs|steps|github|runner|env)((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)/g, (_m, root: string, path: string) => {
      let v: any = ctx[root];
      for (const k of path.slice(1).split('.')) v = v == null ? undefined : v[k];
      refs.push(v ?? '');
      return `__r[${refs.length - 1}]`;
    });
  if (!/^[\s\w[\]()!=&|<>]*$/.test(js)) throw new Error(`unsupported expression: ${expr}`);
  return new Function('__r', `return (${js.replace(/==/g, '===').replace(/!===/g, '!==')});`)(refs);
}

/** A string with every `${{ expr }}` replaced by its value. */
export function interpolate(text: string, ctx: Obj): string {
  return text.replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (_m, e: string) => String(evaluate(e, ctx) ?? ''));
}

export async function runAction(actionFile: string, c: ActionContext): Promise<ActionRun> {
  const { parse } = await import('yaml');
  const action = parse(await readFile(actionFile, 'utf8')) as Obj;
  if (action.runs?.using !== 'composite') throw new Error('not a composite action');
  const temp = await mkdtemp(join(tmpdir(), 'monsync-runner-'));
  const ctx: Obj = { inputs: {}, steps: {}, github: c.github, runner: { temp }, env: c.env };
  for (const [name, spec] of Object.entries(action.inputs as Obj)) {
    ctx.inputs[name] = c.inputs[name] ?? (spec.default === undefined ? '' : interpolate(String(spec.default), ctx));
  }
  for (const name of Object.keys(c.inputs)) if (!(name in action.inputs)) throw new Error(`the action has no input ${name}`);
  const run: ActionRun = { steps: {}, ran: [], log: '' };
  for (const step of action.runs.steps as Obj[]) {
    if (run.failed) break;
    if (step.if !== undefined && !evaluate(String(step.if), ctx)) continue;
    run.ran.push(step.name);
    const env: Obj = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(String(v), ctx)]));
    const outputs: Record<string, string> = {};
    if (typeof step.run === 'string') {
      if (step.shell !== 'bash') throw new Error(`step ${step.name}: shell ${step.shell}`);
      const out = join(temp, `output-${run.ran.length}`);
      await writeFile(out, '');
      const cwd = resolve(c.workspace, interpolate(String(step['working-directory'] ?? '.'), ctx));
      const r = await bash(step.run, cwd, { ...c.env, ...env, GITHUB_OUTPUT: out, RUNNER_TEMP: temp }, ['--noprofile', '--norc', '-eo', 'pipefail']);
      run.log += r.stdout + r.stderr;
      for (const line of (await readFile(out, 'utf8')).split('\n')) {
        const i = line.indexOf('=');
        if (i > 0) outputs[line.slice(0, i)] = line.slice(i + 1);
      }
      if (r.code !== 0) run.failed = { name: step.name, ...r };
    } else if (String(step.uses).startsWith('actions/github-script@')) {
      if (!c.script) throw new Error('a github-script step ran without a stand-in GitHub');
      const script = interpolate(String(step.with.script), ctx);
      const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
      const require = createRequire(join(c.workspace, 'x.js'));
      const proc = { env: { ...c.env, ...env } };
      try {
        await new AsyncFunction('github', 'context', 'require', 'process', script)(c.script.github, c.script.context, require, proc);
      } catch (err) {
        run.failed = { name: step.name, code: 1, stdout: '', stderr: String(err) };
      }
    } else {
      throw new Error(`step ${step.name}: unsupported uses ${step.uses}`);
    }
    if (step.id) ctx.steps[step.id] = { outputs };
    if (step.id) run.steps[step.id] = outputs;
  }
  return run;
}
