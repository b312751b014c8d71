/**
 * File names are user text: a pull request can add `a\n```\n## ✅ No changes @org\n<!--.yaml`. Every
 * place monsync prints a file name (validate's and the loader's `file:line:column`, `fmt`, the text and
 * Markdown plans, the checks' findings) keeps it one visible token: quoted with its line breaks as
 * `\n` when it is not one plain line, as it is otherwise.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFmt } from '../../src/cli/fmt.js';
import { runValidate } from '../../src/cli/validate.js';
import { diff } from '../../src/plan/diff.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { captureIo } from '../helpers/io.js';
import { dMonitor, desiredState, liveState } from '../plan/helpers.js';

const HOSTILE_NAME = 'a\n```\n## ✅ No changes @org\n<!--.yaml';
const QUOTED = JSON.stringify(HOSTILE_NAME);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'monsync-paths-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** No line of `text` starts what Markdown would act on once a fence is closed: a fence, a heading, an HTML comment. */
function linesOf(text: string): string[] {
  return text.split('\n');
}
const breakout = (line: string) => /^(```|## |<!--)/.test(line);

describe('a file name holding line breaks', () => {
  it('is quoted, one token, in validate: no line of its output starts a fence, a heading or an HTML comment', async () => {
    await writeFile(join(dir, HOSTILE_NAME), 'version: 1\nmonitors:\n  - label: x\n    bogus: 1\n');
    const io = captureIo({}, { cwd: dir });
    expect(await runValidate([HOSTILE_NAME], {}, io)).toBe(1);
    expect(linesOf(io.stderr).filter(breakout)).toEqual([]);
    expect(io.stderr).toContain(`${QUOTED}:4:5: unknown key "bogus" in monitor`);
    await rm(join(dir, HOSTILE_NAME));
  });

  it('is quoted in fmt --check and in its diff headers', async () => {
    await writeFile(join(dir, HOSTILE_NAME), 'version:   1\nmonitors: []\n');
    const check = captureIo({}, { cwd: dir });
    expect(await runFmt([HOSTILE_NAME], { check: true }, check)).toBe(1);
    expect(check.stdout).toBe(`${QUOTED}\n`);
    const diffIo = captureIo({}, { cwd: dir });
    expect(await runFmt([HOSTILE_NAME], { check: true, diff: true }, diffIo)).toBe(1);
    expect(linesOf(diffIo.stdout).filter(breakout)).toEqual([]);
    expect(diffIo.stdout).toContain(`--- a/${QUOTED}`);
    await rm(join(dir, HOSTILE_NAME));
  });

  it('is quoted where the text plan and the Markdown plan say which file asks for a change; a plain name stays as it is', () => {
    const at = (file: string, line: number) => ({ file, line, column: 5 });
    const desired = desiredState({ files: [HOSTILE_NAME], monitors: [{ ...dMonitor('x'), source: at(HOSTILE_NAME, 3) }, { ...dMonitor('y'), source: at('monitoring/eu.yaml', 7) }] });
    const plan = diff(desired, liveState({}), { target: 'http://127.0.0.1:1', now: new Date(0) });
    const text = renderPlanText(plan, { color: false });
    expect(linesOf(text).filter(breakout)).toEqual([]);
    expect(text).toContain(`# ${QUOTED}:3`);
    expect(text).toContain('# monitoring/eu.yaml:7');
    const md = renderPlanMarkdown(plan);
    expect(linesOf(md).filter((l) => /^(## ✅|<!--\.yaml)/.test(l))).toEqual([]);
    expect(md).not.toContain(HOSTILE_NAME);
    expect(md).not.toContain('@org');
  });
});
