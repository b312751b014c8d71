/**
 * The CI recipes check formatting where a reviewer looks (pull and merge requests, before the
 * plan) and never where it would hold up an apply; their validate scripts, run for real under bash
 * with `npx` shimmed to the built CLI, fail on an unformatted configuration and pass on a formatted one.
 */
import { spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findInvocations } from '../ci/cli-args.js';
import { BIN, ROOT, buildCli } from '../helpers/cli.js';
import { writeTree } from '../config/helpers.js';

type Obj = Record<string, any>;

const recipe = async (name: string): Promise<Obj> => parse(await readFile(path.join(ROOT, 'examples', 'ci', name), 'utf8')) as Obj;
const calls = (scripts: string[]) => findInvocations(scripts).map((i) => i.argv);

describe('GitHub Actions recipe', () => {
  it('checks formatting in the validate step of the pull request job, before the plan, and not before an apply', async () => {
    const wf = await recipe('github-actions.yml');
    const steps = wf.jobs.plan.steps as Obj[];
    const validate = steps.findIndex((s) => s.name === 'Validate');
    expect(calls([steps[validate]!.run])).toEqual([['validate', 'monitoring/'], ['fmt', '--check', '--diff', 'monitoring/']]);
    expect(validate).toBeLessThan(steps.findIndex((s) => s.name === 'Plan'));
    const applyCalls = calls((wf.jobs.apply.steps as Obj[]).flatMap((s) => (typeof s.run === 'string' ? [s.run] : [])));
    expect(applyCalls.some((argv) => argv[0] === 'fmt')).toBe(false);
  });
});

describe('GitLab CI recipe', () => {
  it('checks formatting in the validate job on merge requests only, and not in the apply job', async () => {
    const ci = await recipe('gitlab-ci.yml');
    const script = ci['monsync-validate'].script as string[];
    expect(calls(script)).toEqual([['validate', 'monitoring/'], ['fmt', '--check', '--diff', 'monitoring/']]);
    expect(script.find((l) => l.includes('monsync fmt'))).toContain('"$CI_PIPELINE_SOURCE" = "merge_request_event"');
    expect(calls(ci['monsync-apply'].script).some((argv) => argv[0] === 'fmt')).toBe(false);
  });
});

describe('the validate scripts, run', () => {
  let project: string;
  beforeAll(async () => {
    await buildCli();
    project = await writeTree({});
    await cp(path.join(ROOT, 'examples', 'small'), path.join(project, 'monitoring'), { recursive: true });
    await mkdir(path.join(project, '.bin'));
    const npx = path.join(project, '.bin', 'npx');
    await writeFile(npx, `#!/bin/sh\n[ "$1" = monsync ] || exit 127\nshift\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(npx, 0o755);
  }, 300_000);

  function bash(script: string, env: Record<string, string> = {}) {
    return spawnSync('bash', ['-e', '-c', script], {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: `${path.join(project, '.bin')}:${process.env.PATH ?? ''}`, NO_COLOR: '1', ...env },
    });
  }

  it('fail with the diff on an unformatted configuration, and pass once `monsync fmt` has run', async () => {
    const github = (await recipe('github-actions.yml')).jobs.plan.steps.find((s: Obj) => s.name === 'Validate').run as string;
    const gitlab = ((await recipe('gitlab-ci.yml'))['monsync-validate'].script as string[]).join('\n');

    // The example is formatted (test/docs/yaml-style.test.ts); as a person might write it, it is not.
    const file = path.join(project, 'monitoring', 'monsync.yaml');
    const tidy = await readFile(file, 'utf8');
    const messy = tidy.replace('subject_init: mx-primary is DOWN', 'subject_init: "mx-primary is DOWN"').replace('[ops-mail]', '[ ops-mail ]');
    expect(messy).not.toBe(tidy);
    await writeFile(file, messy);

    const before = bash(github);
    expect(before.status).toBe(1);
    expect(before.stdout).toContain('--- a/monitoring/monsync.yaml');
    // The step keeps what failed for the comment: stderr goes with stdout into validate.out.
    expect(before.stdout).toContain('1 file not formatted');
    expect(bash(gitlab, { CI_PIPELINE_SOURCE: 'merge_request_event' }).status).toBe(1);
    // On the default branch the formatting is not checked: the apply goes ahead.
    expect(bash(gitlab, { CI_PIPELINE_SOURCE: 'push' }).status).toBe(0);

    expect(bash('npx monsync fmt monitoring/').status).toBe(0);
    expect(bash(github)).toMatchObject({ status: 0 });
    expect(bash(gitlab, { CI_PIPELINE_SOURCE: 'merge_request_event' }).status).toBe(0);
  });
});
