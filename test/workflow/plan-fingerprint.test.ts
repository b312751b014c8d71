/**
 * The live-state fingerprint is work only a plan that is kept needs (issue 20): saved with --out,
 * printed as JSON or Markdown (which carry it), or applied. A text plan on the terminal does not
 * compute it; every other path still carries the same fingerprint, and apply still refuses a
 * saved plan once the account changed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeSavedPlan, SavedPlanError } from '../../src/apply/saved-plan.js';
import { runPlan } from '../../src/cli/plan.js';
import { fingerprintLive } from '../../src/plan/fingerprint.js';
import { planFlow } from '../../src/workflow/plan.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { v1Env } from '../ops/helpers.js';
import { commandContext } from '../../src/workflow/context.js';

vi.mock('../../src/plan/fingerprint.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/plan/fingerprint.js')>();
  return { ...original, fingerprintLive: vi.fn(original.fingerprintLive) };
});

const SMALL = join(import.meta.dirname, '..', '..', 'examples', 'small');
const computed = vi.mocked(fingerprintLive);
let emu: TestEmulator;
/** The command context of a run against the test emulator (the v1 login), reading `paths`. */
const contextFor = (paths: string[]) => commandContext(captureIo(v1Env(emu.url), { cwd: process.cwd(), now: Date.now }), paths);
let dir: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
  dir = mkdtempSync(join(tmpdir(), 'monsync-plan-fp-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});
// A block body: a function returned from beforeEach would be called as its teardown.
beforeEach(() => {
  computed.mockClear();
});

const plan = (opts: Parameters<typeof runPlan>[1]) => {
  const io = captureIo(v1Env(emu.url));
  return runPlan([SMALL], opts, io).then((code) => ({ code, io }));
};

describe('planFlow and the fingerprint', () => {
  it('carries the fingerprint of the live state it read by default', async () => {
    const { plan: p, live } = await planFlow(contextFor([SMALL]), {});
    expect(p.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const fresh = fingerprintLive(live, p.options);
    expect(p.fingerprint).toBe(fresh);
  });

  it('does not compute it when told the plan is only shown', async () => {
    const { plan: p, desired } = await planFlow(contextFor([SMALL]), { fingerprint: false });
    expect(computed).not.toHaveBeenCalled();
    expect(p.fingerprint).toBe('');
  });
});

describe('monsync plan and the fingerprint', () => {
  it('does not compute it for a text plan that is not saved', async () => {
    const { code, io } = await plan({});
    expect(code).toBe(0);
    expect(io.stdout).toMatch(/to add|No changes/);
    expect(computed).not.toHaveBeenCalled();
  });

  it('saves it with --out, and the saved plan is the one a fresh read of the account fingerprints alike', async () => {
    const file = join(dir, 'plan.json');
    await plan({ out: file });
    expect(computed).toHaveBeenCalledTimes(1);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { fingerprint: string };
    expect(saved.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const again = await planFlow(contextFor([SMALL]), {});
    expect(saved.fingerprint).toBe(again.plan.fingerprint);
  });

  it('prints it with --format json, and its first characters in the Markdown footer', async () => {
    const json = await plan({ format: 'json' });
    const fingerprint = (JSON.parse(json.io.stdout) as { fingerprint: string }).fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const md = await plan({ format: 'markdown' });
    expect(md.io.stdout).toContain(`Fingerprint <code>${fingerprint.slice(0, 12)}`);
  });
});

describe('a plan without a fingerprint is never saved', () => {
  it('is refused by writeSavedPlan, which writes nothing', async () => {
    const { plan: p, desired } = await planFlow(contextFor([SMALL]), { fingerprint: false });
    const file = join(dir, 'unsaved.json');
    await expect(writeSavedPlan(file, p, desired)).rejects.toBeInstanceOf(SavedPlanError);
    await expect(writeSavedPlan(file, p, desired)).rejects.toThrow(/fingerprint/);
    expect(() => readFileSync(file)).toThrow();
  });
});
