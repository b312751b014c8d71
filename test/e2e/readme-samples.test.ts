/**
 * The output samples of docs/commands.md are what the CLI prints. A sample is a fenced block whose
 * first line is a command (`$ npx monsync ARGS`) and whose other lines are its standard output; this
 * suite runs each command as README's tour leaves the account (the emulator's starting account, examples/realistic
 * applied), against an emulator whose clock is fixed, so the output is the same on every run.
 *
 * When an output changes on purpose, rewrite the samples from real runs:
 *   MONSYNC_README_SAMPLES=write npx vitest run test/e2e/readme-samples.test.ts
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT, buildCli, runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { Workspace } from './support.js';

const PAGE = join(ROOT, 'docs', 'commands.md');
const SAMPLE = /^```\n\$ npx monsync ([^\n]+)\n([\s\S]*?)^```$/gm;
const WRITE = process.env['MONSYNC_README_SAMPLES'] === 'write';

/** Every sample of the page: the command's arguments and the output shown. */
function samples(readme: string): Map<string, string> {
  return new Map([...readme.matchAll(SAMPLE)].map((m) => [m[1]!, m[2]!]));
}

let emu: TestEmulator;
let ws: Workspace;
let readme: string;
/** The output of each sample's command, as run here. */
const printed = new Map<string, string>();

async function run(args: string): Promise<string> {
  const r = await runCli(args.split(' '), { url: emu.url, cwd: ws.dir });
  expect(r.code, r.stderr).toBe(0);
  printed.set(args, r.stdout);
  return r.stdout;
}

/** The page's description of the edit before its plan sample, made to the copy of examples/realistic. */
async function edit(file: string, change: (text: string) => string): Promise<void> {
  const path = ws.path(`examples/realistic/${file}`);
  const before = await readFile(path, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} changed nothing`).not.toBe(before);
  await writeFile(path, after);
}

beforeAll(async () => {
  await buildCli();
  readme = await readFile(PAGE, 'utf8');
  // The emulator runs in this process: its clock stands still unless a command moves it.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2024, 5, 3, 9, 0, 0) });
  emu = await startTestEmulator({ seed: 'default' });
  ws = await Workspace.create();
  await cp(join(ROOT, 'examples', 'realistic'), ws.path('examples/realistic'), { recursive: true });
  // One call at a time: the service's ids then come out in the same order on every run.
  const applied = await runCli(['apply', 'examples/realistic', '--auto-approve', '--parallelism', '1'], { url: emu.url, cwd: ws.dir });
  expect(applied.code, applied.stderr).toBe(0);
  // The monitors have been running a while when the tour gets to the drill.
  vi.setSystemTime(Date.UTC(2024, 5, 3, 11, 0, 0));
}, 300_000);

afterAll(async () => {
  vi.useRealTimers();
  await emu?.close();
  await ws?.remove();
  if (WRITE && printed.size > 0) {
    let text = await readFile(PAGE, 'utf8');
    text = text.replace(SAMPLE, (block, args: string) => (printed.has(args) ? `\`\`\`\n$ npx monsync ${args}\n${printed.get(args)}\`\`\`` : block));
    await writeFile(PAGE, text);
  }
});

describe("docs/commands.md's output samples", () => {
  it('has the samples this suite runs, and no others', () => {
    expect([...samples(readme).keys()]).toEqual(['plan examples/realistic', 'drill mx-eu-1 --minutes 60']);
  });

  it('the drill sample is what `drill mx-eu-1 --minutes 60` prints after the tour', async () => {
    const out = await run('drill mx-eu-1 --minutes 60');
    if (!WRITE) expect(samples(readme).get('drill mx-eu-1 --minutes 60')).toBe(out);
  });

  it('the plan sample is what `plan examples/realistic` prints after the edit the page describes', async () => {
    // "mx-eu-2 tested every 10 minutes, relay-ams taken out of europe.yaml and of the group europe"
    await edit('europe.yaml', (t) => t.replace('    port: 587\n', '    port: 587\n    timer: 10\n').replace(/\n {2}- label: relay-ams\n[\s\S]*$/, '\n'));
    await edit('groups.yaml', (t) => t.replace('monitors: [mx-eu-1, mx-eu-2, relay-fra, relay-ams]', 'monitors: [mx-eu-1, mx-eu-2, relay-fra]'));
    expect(readme.replace(/\s+/g, ' ')).toContain('with `timer: 10` on mx-eu-2, and relay-ams taken out of `europe.yaml` and of the group europe');
    const out = await run('plan examples/realistic');
    if (!WRITE) expect(samples(readme).get('plan examples/realistic')).toBe(out);
  });
});
