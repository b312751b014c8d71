import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkFingerprint,
  parseSavedPlan,
  readSavedPlan,
  SavedPlanError,
  writeSavedPlan,
} from '../../src/apply/saved-plan.js';
import { createAlert, createMonitor, deleteChange, makePlan, ref } from './plan-builder.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'monsync-plan-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const plan = makePlan([
  createMonitor('mx-eu-3'),
  createAlert('mx-eu-3', 'mx-eu-3 is DOWN', ref('monitor:mx-eu-3')),
  { ...deleteChange('monitor', 'mx-legacy', '40001'), note: { pruned: true }, effects: { cascade_alerts: 2 } },
]);

describe('saved plans', () => {
  it('round-trips a plan through a file, refs and all', async () => {
    const file = join(dir, 'plan.json');
    await writeSavedPlan(file, plan);
    const back = await readSavedPlan(file);
    expect(back).toEqual({ ok: true, plan });
    expect((await readFile(file, 'utf8')).endsWith('}\n')).toBe(true);
  });

  // In memory what is shown (note) and what apply decides on (effects) are apart; format 1 keeps
  // the effects inside note, so saved plans and plan --json read as they always did.
  it('writes a change\'s effects inside its note, as format 1 always has, and reads them back apart', async () => {
    const file = join(dir, 'plan-effects.json');
    await writeSavedPlan(file, plan);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { changes: Record<string, unknown>[] };
    expect(saved.changes[2]!['note']).toEqual({ pruned: true, cascade_alerts: 2 });
    expect(saved.changes[2]).not.toHaveProperty('effects');
    const back = await readSavedPlan(file);
    expect(back.ok && back.plan.changes[2]).toMatchObject({ note: { pruned: true }, effects: { cascade_alerts: 2 } });
    expect(back.ok && back.plan.changes[2]!.note).not.toHaveProperty('cascade_alerts');
  });

  it('says what is wrong with a missing file, bad JSON, a non-plan or another format version', async () => {
    const missing = await readSavedPlan(join(dir, 'nope.json'));
    expect(missing).toEqual({ ok: false, error: `cannot read the plan file ${join(dir, 'nope.json')}: no such file or directory` });

    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"format_version": 1,');
    const badRead = await readSavedPlan(bad);
    expect(badRead.ok).toBe(false);
    if (!badRead.ok) expect(badRead.error).toMatch(/bad\.json is not a saved plan: it is not valid JSON/);

    expect(parseSavedPlan('{"monitors": []}', 'x.json')).toEqual({
      ok: false,
      error: 'x.json is not a saved plan (no format_version); save one with `monsync plan --out FILE`',
    });
    expect(parseSavedPlan('[1,2]', 'x.json').ok).toBe(false);
    const v2 = parseSavedPlan(JSON.stringify({ ...plan, format_version: 2 }), 'x.json');
    expect(v2).toEqual({
      ok: false,
      error: 'x.json is a plan of format version 2; this monsync applies version 1. Run plan again with this version.',
    });
  });

  it('rejects a plan whose changes apply could not run, naming the field', () => {
    const broken = (mutate: (p: any) => void) => {
      const p = structuredClone(plan) as any;
      mutate(p);
      const r = parseSavedPlan(JSON.stringify(p), 'p.json');
      return r.ok ? 'ok' : r.error;
    };
    expect(broken(() => {})).toBe('ok');
    expect(broken((p) => (p.changes[0].action = 'replace'))).toBe('p.json is not a valid saved plan: changes[0].action must be create, update or delete');
    expect(broken((p) => (p.changes[2].id = null))).toBe('p.json is not a valid saved plan: changes[2].id must be the live id');
    expect(broken((p) => (p.changes[1].depends_on = ['monitor:elsewhere']))).toMatch(/changes\[1\]\.depends_on names "monitor:elsewhere"/);
    expect(broken((p) => (p.changes[0].call.method = 'PUT'))).toMatch(/changes\[0\]\.call must be a POST/);
    expect(broken((p) => delete p.fingerprint)).toMatch(/fingerprint must be a non-empty string/);
    expect(broken((p) => (p.changes[1].ref = p.changes[0].ref))).toMatch(/appears twice/);
  });

  it('refuses to apply when the account fingerprint differs', () => {
    expect(checkFingerprint(plan, plan.fingerprint)).toEqual({ ok: true });
    expect(checkFingerprint(plan, 'sha256:other')).toEqual({
      ok: false,
      message: 'the account changed since this plan was made; run plan again',
    });
  });

  it('reports a file it cannot write as a typed error naming the file', async () => {
    const target = join(dir, 'no-such-dir', 'plan.json');
    await expect(writeSavedPlan(target, plan)).rejects.toThrow(SavedPlanError);
    await expect(writeSavedPlan(target, plan)).rejects.toThrow(`cannot write the plan to ${target}: no such file or directory`);
  });
});
