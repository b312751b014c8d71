import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkFingerprint,
  parseSavedPlan,
  proveSavedPlan,
  readSavedPlan,
  serializePlan,
  SavedPlanError,
  writeSavedPlan,
} from '../../src/apply/saved-plan.js';
import { runChecks } from '../../src/checks/run.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { assemblePlan, savedPlanInputs } from '../../src/workflow/assemble.js';
import { dAlert, desiredState, dMonitor, liveAlert, liveMonitor, liveState, NOW, OWNER, TARGET } from '../plan/helpers.js';
import { createAlert, createMonitor, deleteChange, makePlan, ref } from './plan-builder.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'monsync-plan-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const desired = desiredState({ monitors: [dMonitor('mx-eu-3')] });
const plan = makePlan([
  createMonitor('mx-eu-3'),
  createAlert('mx-eu-3', 'mx-eu-3 is DOWN', ref('monitor:mx-eu-3')),
  { ...deleteChange('monitor', 'mx-legacy', '40001'), note: { pruned: true }, effects: { cascade_alerts: 2 } },
]);

describe('saved plans', () => {
  it('round-trips a plan through a file, refs and all', async () => {
    const file = join(dir, 'plan.json');
    await writeSavedPlan(file, plan, desired);
    const back = await readSavedPlan(file);
    expect(back).toEqual({ ok: true, plan, desired });
    expect((await readFile(file, 'utf8')).endsWith('}\n')).toBe(true);
  });

  // In memory what is shown (note) and what apply decides on (effects) are apart; format 1 keeps
  // the effects inside note, so saved plans and plan --json read as they always did.
  it('writes a change\'s effects inside its note, as format 1 always has, and reads them back apart', async () => {
    const file = join(dir, 'plan-effects.json');
    await writeSavedPlan(file, plan, desired);
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
    await expect(writeSavedPlan(target, plan, desired)).rejects.toThrow(SavedPlanError);
    await expect(writeSavedPlan(target, plan, desired)).rejects.toThrow(`cannot write the plan to ${target}: no such file or directory`);
  });
});

describe('a saved plan is applied only as it was made (issue 23, item 3)', () => {
  // An account with a managed monitor to update, one to delete, an unmanaged HTTP-like monitor of
  // another owner that an edited id could point at, and a configuration adding a monitor with an alert.
  const live = liveState({
    monitors: [
      liveMonitor({ id: '10001', label: 'keep', meta: { 'managed-by': OWNER }, timer: 5 }),
      liveMonitor({ id: '10002', label: 'todelete', meta: { 'managed-by': OWNER } }),
      liveMonitor({ id: '10003', label: 'www-http', meta: {} }),
    ],
    alerts: [liveAlert({ id: '50001', monitor: '10002', subject_init: 'todelete DOWN' })],
  });
  const wanted = desiredState({
    monitors: [dMonitor('keep', { timer: 10 }), dMonitor('new', {}, { alerts: [dAlert('new DOWN')] })],
  });
  const made: Plan = { ...diff(wanted, live, { target: TARGET, now: NOW }), checks: runChecks(wanted, live) };
  /** The plan as `apply --plan` reads it from the file, after `edit`. */
  const read = (edit: (p: any) => void = () => {}) => {
    const data = JSON.parse(serializePlan(made, wanted));
    edit(data);
    const r = parseSavedPlan(JSON.stringify(data), 'p.json');
    if (!r.ok) throw new Error(r.error);
    return r;
  };
  const prove = (edit: (p: any) => void = () => {}) => {
    const r = read(edit);
    return proveSavedPlan(r.plan, () => assemblePlan(r.desired!, live, savedPlanInputs(r.plan)), 'p.json');
  };
  const at = (action: string) => made.changes.findIndex((c) => c.action === action);

  it('the plan as saved proves: planning its desired state again gives every change exactly', () => {
    expect(made.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['update keep', 'create new', 'create new / new DOWN', 'delete todelete']);
    const proved = prove();
    expect(proved.ok ? 'proved' : proved.message).toBe('proved');
    if (proved.ok) expect(JSON.parse(JSON.stringify(proved.plan))).toEqual(read().plan);
  });

  const edits: [string, (p: any) => void, RegExp][] = [
    ["a delete's id pointing at another monitor", (p) => (p.changes[at('delete')].id = '10003'), /changes\[3\]\.id is "10003", planning again gives "10002"/],
    ["a delete's call path pointing at another monitor", (p) => (p.changes[at('delete')].call.path = '/v1/Config/Monitor/10003/'), /changes\[3\]\.call is /],
    ["an update's body", (p) => (p.changes[at('update')].call.body.ip_address = 'evil.example.com'), /changes\[0\]\.call is /],
    ["a change's key", (p) => (p.changes[at('delete')].key = 'something-else'), /changes\[3\]\.key is "something-else", planning again gives "todelete"/],
    ["a change's action", (p) => Object.assign(p.changes[at('update')], { action: 'delete', call: { method: 'DELETE', path: p.changes[at('update')].call.path } }), /changes\[0\]\.action is "delete", planning again gives "update"/],
    ['a change removed', (p) => p.changes.splice(at('delete'), 1), /it holds 3 changes, planning again gives 4/],
    ['a change added', (p) => p.changes.push({ ...p.changes[at('delete')], ref: 'monitor:x', id: '10003', key: 'www-http', call: { method: 'DELETE', path: '/v1/Config/Monitor/10003/' } }), /it holds 5 changes, planning again gives 4/],
    ['the summary', (p) => (p.summary.delete = 0), /summary differs/],
    ['the checks', (p) => (p.checks = undefined), /checks differs/],
  ];

  it.each(edits)('an edited plan file is refused with one message naming what differs: %s', (_name, edit, why) => {
    const r = prove(edit);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(/^p\.json is not what monsync plans for the configuration saved in it against this account \(/);
    expect(r.message).toMatch(why);
    expect(r.message).toMatch(/it was edited or damaged, so nothing was sent: run plan again$/);
  });

  it('an intact file (its sha256 holds) whose maintenance windows differ on planning again is refused naming the window and the account, not the file (issue 45)', () => {
    const window = { window: 'nightly', start: '2026-11-26T03:00:00Z', end: '2026-11-26T03:30:00Z', monitors: ['keep'], unmatched: [] };
    const text = serializePlan({ ...made, maintenance: [window] }, wanted);
    expect(JSON.parse(text).sha256).toMatch(/^[0-9a-f]{64}$/);
    const again = (r: { plan: Plan; desired: unknown }) => () => ({ ...assemblePlan(wanted, live, savedPlanInputs(r.plan)), maintenance: [{ ...window, monitors: ['keep', 'new'] }] });
    const intact = parseSavedPlan(text, 'p.json');
    if (!intact.ok) throw new Error(intact.error);
    const r = proveSavedPlan(intact.plan, again(intact), 'p.json');
    expect(r.ok ? 'proved' : r.message).toBe(
      'p.json no longer matches this account (maintenance window "nightly" covers ["keep","new"] now, the file says ["keep"]): the file is intact (its sha256 holds), so the account changed since the plan was made, in what its fingerprint does not cover; nothing was sent: run plan again',
    );
    // The same difference in a file edited by hand is the file's.
    const edited = JSON.parse(text);
    edited.maintenance[0].end = '2026-11-26T03:31:00Z';
    const damaged = parseSavedPlan(JSON.stringify(edited), 'p.json');
    if (!damaged.ok) throw new Error(damaged.error);
    const blamed = proveSavedPlan(damaged.plan, again(damaged), 'p.json');
    expect(blamed.ok ? 'proved' : blamed.message).toMatch(/^p\.json is not what monsync plans .*it was edited or damaged/);
  });

  it('an edited desired state that the planner stops on is refused, not thrown', () => {
    const r = prove((p) => p.desired.monitors.push(p.desired.monitors[0]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/planning it again fails/);
  });

  it('a desired state of the wrong shape is refused by the reader, naming the field', () => {
    const data = JSON.parse(serializePlan(made, wanted));
    data.desired.monitors[0].alerts = 'x';
    expect(parseSavedPlan(JSON.stringify(data), 'p.json')).toEqual({
      ok: false,
      error: 'p.json is not a valid saved plan: desired.monitors[0] must be a monitor (label, previous_labels, spec, alerts, source)',
    });
  });

  it('a plan file without its desired state (an older monsync) reads, for show, with desired null', () => {
    const r = parseSavedPlan(serializePlan(made), 'p.json');
    expect(r.ok && r.desired).toBe(null);
  });
});
