import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { executePlan, type ApplyEvent, type ExecuteOptions } from '../../src/apply/execute.js';
import type { Change } from '../../src/plan/types.js';
import { deferred, FakeApi, flush, lostAnswer, refused, unavailable, type Deferred, type Fault, answered503 } from './fake-api.js';
import {
  createAlert,
  createGroup,
  createMonitor,
  deleteChange,
  makePlan,
  OWNER,
  ref,
  updateAlert,
  updateGroup,
  updateMonitor,
} from './plan-builder.js';

function run(changes: Change[], api: FakeApi, opts: Partial<ExecuteOptions> = {}) {
  const events: ApplyEvent[] = [];
  const promise = executePlan(makePlan(changes), api, {
    parallelism: 8,
    owner: OWNER,
    onEvent: (e) => events.push(e),
    ...opts,
  });
  return { promise, events };
}

/** Faults by call name and per-name occurrence (1-based). */
function faultsOn(table: Record<string, Record<number, Fault>>) {
  const seen = new Map<string, number>();
  return (call: { name: string }): Fault | undefined => {
    const k = (seen.get(call.name) ?? 0) + 1;
    seen.set(call.name, k);
    return table[call.name]?.[k];
  };
}

function byKey(api: FakeApi, label: string) {
  return [...api.monitors.values()].filter((m) => m.label === label);
}

describe('executePlan: order, refs and concurrency', () => {
  it('creates a monitor, its alert and a group, passing the new monitor id where the plan has a ref', async () => {
    const api = new FakeApi();
    const existing = api.seedMonitor('mx-us-1', { meta: { 'managed-by': OWNER } });
    const changes = [
      createMonitor('mx-eu-3'),
      createAlert('mx-eu-3', 'mx-eu-3 is DOWN', ref('monitor:mx-eu-3')),
      createGroup('production', [ref('monitor:mx-eu-3'), existing.id]),
    ];
    const { promise, events } = run(changes, api);
    const result = await promise;

    expect(result.results.map((r) => r.status)).toEqual(['done', 'done', 'done']);
    expect(result).toMatchObject({ done: 3, failed: 0, skipped: 0, notStarted: 0, interrupted: false, readbacks: 0 });
    const [m] = byKey(api, 'mx-eu-3');
    expect(result.results[0]!.id).toBe(m!.id);
    const alert = [...api.alerts.values()][0]!;
    expect(alert.monitor).toBe(m!.id);
    expect(result.results[1]!.id).toBe(alert.id);
    const group = [...api.groups.values()][0]!;
    expect(group.members).toEqual([m!.id, existing.id]);
    // The plan itself is left as it was: refs are resolved into a copy.
    expect(changes[1]!.call.body!.monitor).toEqual({ $ref: 'monitor:mx-eu-3' });
    expect(events.filter((e) => e.type === 'started').map((e) => e.type === 'started' && e.label)).toEqual([
      '+ monitor "mx-eu-3"',
      '+ alert "mx-eu-3" / "mx-eu-3 is DOWN"',
      '+ group "production"',
    ]);
  });

  it('never has more than `parallelism` calls in flight and starts nothing before its dependencies are done', async () => {
    const gates: Deferred[] = [];
    const api = new FakeApi({
      gate: () => {
        const d = deferred();
        gates.push(d);
        return d.promise;
      },
    });
    const changes: Change[] = [];
    for (let i = 0; i < 8; i++) changes.push(createMonitor(`m${i}`));
    for (let i = 0; i < 8; i++) changes.push(createAlert(`m${i}`, `m${i} down`, ref(`monitor:m${i}`)));
    const { promise, events } = run(changes, api, { parallelism: 3 });

    // Release calls one at a time, in a scrambled order, until the run is over.
    let settled = false;
    void promise.then(() => (settled = true));
    let k = 0;
    while (!settled) {
      await flush();
      const open = gates.filter((g) => g !== undefined);
      if (open.length === 0) continue;
      const pick = (k++ * 7) % open.length;
      const g = open[pick]!;
      gates.splice(gates.indexOf(g), 1);
      g.resolve();
    }
    const result = await promise;
    expect(result.done).toBe(16);
    expect(api.maxInFlight).toBe(3);

    const finishedAt = new Map<string, number>();
    events.forEach((e, pos) => {
      if (e.type === 'finished') finishedAt.set(e.result.ref, pos);
    });
    events.forEach((e, pos) => {
      if (e.type !== 'started') return;
      for (const dep of e.change.depends_on) expect(finishedAt.get(dep)!).toBeLessThan(pos);
    });
  });

  it('starts an alert as soon as its own monitor is done, while an unrelated monitor create is still slow', async () => {
    const slow = deferred();
    const api = new FakeApi({
      gate: (c) => (c.name === 'createMonitor' && (c.args[0] as { label: string }).label === 'slow' ? slow.promise : undefined),
    });
    const { promise } = run(
      [
        createMonitor('slow'),
        createMonitor('fast'),
        createAlert('slow', 'slow down', ref('monitor:slow')),
        createAlert('fast', 'fast down', ref('monitor:fast')),
      ],
      api,
      { parallelism: 4 },
    );
    await flush();
    const fastMonitor = byKey(api, 'fast')[0]!;
    expect([...api.alerts.values()].map((a) => a.monitor)).toEqual([fastMonitor.id]);
    expect(byKey(api, 'slow')).toEqual([]);
    slow.resolve();
    const result = await promise;
    expect(result.done).toBe(4);
    expect(api.alerts.size).toBe(2);
  });

  it('reads an alert back after an update the service answers with nothing', async () => {
    const api = new FakeApi();
    const m = api.seedMonitor('mx-us-1');
    const a = api.seedAlert(m.id, 'mx-us-1 is DOWN');
    const result = await run([updateAlert('mx-us-1', 'mx-us-1 is DOWN', a.id, m.id, 30)], api).promise;
    expect(result.results[0]).toMatchObject({ status: 'done', id: a.id, live: { id: a.id, timeout: 30 } });
    expect(api.callsNamed('getAlert')).toHaveLength(1);
  });

  it('sends updates and deletes to the plan ids with the plan bodies', async () => {
    const api = new FakeApi();
    const m = api.seedMonitor('mx-us-1');
    const old = api.seedMonitor('mx-legacy');
    const g = api.seedGroup('production', [old.id]);
    const result = await run(
      [
        createMonitor('mx-eu-3'),
        updateMonitor('mx-us-1', m.id, { timer: 10, ttl: 600 }),
        updateGroup('production', g.id, [ref('monitor:mx-eu-3'), m.id]),
        deleteChange('monitor', 'mx-legacy', old.id, ['group:production']),
      ],
      api,
    ).promise;
    expect(result.done).toBe(4);
    expect(api.monitors.get(m.id)).toMatchObject({ timer: 10, ttl: 600 });
    expect(api.monitors.has(old.id)).toBe(false);
    expect(api.groups.get(g.id)!.members).toEqual([byKey(api, 'mx-eu-3')[0]!.id, m.id]);
    expect(api.callsNamed('updateMonitor')[0]!.args).toEqual([m.id, { timer: 10, ttl: 600 }]);
  });
});

describe('executePlan: failures', () => {
  it('skips what depends on a failed change, naming what it needed, and carries on with the rest', async () => {
    const api = new FakeApi({
      fault: (c) =>
        c.name === 'createMonitor' && (c.args[0] as { label: string }).label === 'mx-eu-4'
          ? { type: 'fail', error: refused('createMonitor', 'time_zone: unknown zone Europe/Berln') }
          : undefined,
    });
    const other = api.seedMonitor('other');
    const changes = [
      createMonitor('mx-eu-4'),
      createMonitor('mx-eu-5'),
      createAlert('mx-eu-4', 'mx-eu-4 is DOWN', ref('monitor:mx-eu-4')),
      createAlert('mx-eu-5', 'mx-eu-5 is DOWN', ref('monitor:mx-eu-5')),
      createGroup('production', [ref('monitor:mx-eu-5'), other.id]),
      // Transitively behind the failure: needs the skipped alert.
      { ...updateMonitor('other', other.id, { timer: 10 }), depends_on: ['alert:mx-eu-4/mx-eu-4 is DOWN'] },
    ];
    const result = await run(changes, api).promise;
    expect(result.results.map((r) => r.status)).toEqual(['failed', 'done', 'skipped', 'done', 'done', 'skipped']);
    expect(result.results[0]!.error).toBe('the service said "time_zone: unknown zone Europe/Berln" (POST /v1/Config/Monitor/)');
    expect(result.results[0]!.attempts).toBe(1);
    expect(result.results[2]!.reason).toBe('needs monitor "mx-eu-4"');
    expect(result.results[5]!.reason).toBe('needs alert "mx-eu-4" / "mx-eu-4 is DOWN"');
    expect(result).toMatchObject({ done: 3, failed: 1, skipped: 2 });
    expect(api.callsNamed('createAlert')).toHaveLength(1);
    expect(api.callsNamed('updateMonitor')).toHaveLength(0);
  });

  it('counts a delete answered 404 / unknown id as done', async () => {
    const api = new FakeApi();
    const result = await run([deleteChange('monitor', 'mx-legacy', '40001'), deleteChange('alert', 'x / y', '777')], api).promise;
    expect(result.results.map((r) => [r.status, r.note])).toEqual([
      ['done', 'already gone'],
      ['done', 'already gone'],
    ]);

    const api2 = new FakeApi({
      fault: (c) => (c.name === 'deleteGroup' ? { type: 'fail', error: refused('deleteGroup', 'Unknown group id 9') } : undefined),
    });
    expect((await run([deleteChange('group', 'old', '9')], api2).promise).results[0]!.status).toBe('done');
  });

  it('does not retry what the service refused, and does not count a refused update as gone', async () => {
    const api = new FakeApi({ fault: () => ({ type: 'fail', error: refused('updateMonitor', 'timer: must be one of 3, 5, 10') }) });
    const m = api.seedMonitor('mx-us-1');
    const result = await run([updateMonitor('mx-us-1', m.id, { timer: 7 })], api).promise;
    expect(result.results[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(api.calls).toHaveLength(1);
  });

  it('sends each change once: retrying is the client\'s job, so a call it gave up on fails its change', async () => {
    // The fake stands for the client after its retries. The engine used to retry on top of them
    // (4 x the client's 5 tries: 20 requests for one update under a steady 503).
    const api = new FakeApi({ fault: (c) => (c.name === 'listMonitors' ? undefined : { type: 'fail' }) });
    const m = api.seedMonitor('mx-us-1');
    const a = api.seedAlert(m.id, 'old');
    const result = await run(
      [createMonitor('mx-eu-3'), updateMonitor('mx-us-1', m.id, { timer: 10 }), deleteChange('alert', 'mx-us-1 / old', a.id)],
      api,
      { parallelism: 1 },
    ).promise;
    expect(result.results.map((r) => [r.status, r.attempts])).toEqual([
      ['failed', 1],
      ['failed', 1],
      ['failed', 1],
    ]);
    expect(result.results[1]!.error).toBe(`HTTP 503 Service Unavailable (PUT /v1/Config/Monitor/${m.id}/)`);
    expect(api.calls.map((c) => c.name)).toEqual(['createMonitor', 'updateMonitor', 'deleteAlert']);
  });

  it('reports the requests the client made for a change, retries included', async () => {
    const api = new FakeApi();
    const m = api.seedMonitor('mx-us-1');
    // A client that retried four times before giving up, and one that got through on the third try.
    api.updateMonitor = async (id, _body, opts) => {
      for (let n = 1; n <= 5; n++) opts?.onAttempt?.(n);
      throw unavailable('updateMonitor', [id]);
    };
    api.deleteMonitor = async (id, opts) => {
      for (let n = 1; n <= 3; n++) opts?.onAttempt?.(n);
      return { ...m, id };
    };
    const result = await run([updateMonitor('mx-us-1', m.id, { timer: 10 }), deleteChange('monitor', 'mx-us-1', m.id)], api, {
      parallelism: 1,
    }).promise;
    expect(result.results.map((r) => [r.status, r.attempts])).toEqual([
      ['failed', 5],
      ['done', 3],
    ]);
  });
});

describe('executePlan: lost answers to creates', () => {
  it.each([
    ['monitor', 'createMonitor'],
    ['alert', 'createAlert'],
    ['group', 'createGroup'],
  ])('a %s created but whose answer was lost is found by reading back, not created again', async (kind, call) => {
    const api = new FakeApi({ fault: faultsOn({ [call]: { 1: { type: 'lose' } } }) });
    const m = api.seedMonitor('mx-us-1');
    const change =
      kind === 'monitor' ? createMonitor('mx-eu-3') : kind === 'alert' ? createAlert('mx-us-1', 'DOWN', m.id) : createGroup('production', [m.id]);
    const result = await run([change], api).promise;
    const r = result.results[0]!;
    expect(r).toMatchObject({ status: 'done', attempts: 1, note: 'found after its answer was lost' });
    expect(api.callsNamed(call)).toHaveLength(1);
    expect(result.readbacks).toBe(1);
    const store = kind === 'monitor' ? byKey(api, 'mx-eu-3') : kind === 'alert' ? [...api.alerts.values()] : [...api.groups.values()];
    expect(store).toHaveLength(1);
    expect(r.id).toBe(store[0]!.id);
  });

  it('passes the id found by reading back to the changes that need it', async () => {
    const api = new FakeApi({ fault: faultsOn({ createMonitor: { 1: { type: 'lose' } } }) });
    const result = await run([createMonitor('mx-eu-3'), createAlert('mx-eu-3', 'DOWN', ref('monitor:mx-eu-3'))], api).promise;
    expect(result.done).toBe(2);
    expect([...api.alerts.values()][0]!.monitor).toBe(byKey(api, 'mx-eu-3')[0]!.id);
  });

  it('only accepts a monitor carrying the owner marker as the lost create', async () => {
    const api = new FakeApi({ fault: faultsOn({ createMonitor: { 1: { type: 'lose' } } }) });
    // Someone else's monitor of that label (another owner), listed first, must not be taken for ours.
    const theirs = api.seedMonitor('mx-eu-3', { meta: { 'managed-by': 'other-team' } });
    const result = await run([createMonitor('mx-eu-3')], api).promise;
    const ours = byKey(api, 'mx-eu-3').filter((m) => m.meta['managed-by'] === OWNER);
    expect(ours).toHaveLength(1);
    expect(result.results[0]).toMatchObject({ status: 'done', id: ours[0]!.id, note: 'found after its answer was lost' });
    expect(result.results[0]!.id).not.toBe(theirs.id);
  });

  it('a create answered 503 that the lookup does not find fails without being sent again by the engine', async () => {
    // The client sends it again within its budget (test/api); past that, the change fails as the client says.
    const api = new FakeApi({ fault: faultsOn({ createMonitor: { 1: { type: 'fail', error: answered503('createMonitor') } } }) });
    const result = await run([createMonitor('mx-eu-3')], api).promise;
    expect(result.results[0]).toMatchObject({ status: 'failed', attempts: 1, error: 'HTTP 503 (POST /v1/Config/Monitor/)' });
    expect(result.readbacks).toBe(1);
    expect(api.callsNamed('createMonitor')).toHaveLength(1);
  });

  it('never retries a create it could not check: a failing read-back fails the change', async () => {
    const api = new FakeApi({
      fault: (c) =>
        c.name === 'createMonitor' ? { type: 'fail', error: lostAnswer('createMonitor') } : c.name === 'listMonitors' ? { type: 'fail' } : undefined,
    });
    const result = await run([createMonitor('mx-eu-3')], api).promise;
    expect(result.results[0]!.status).toBe('failed');
    expect(result.results[0]!.error).toMatch(/could not check whether the service created it/);
    expect(api.callsNamed('createMonitor')).toHaveLength(1);
    expect(api.callsNamed('listMonitors')).toHaveLength(1);
  });

  it('never re-sends a create that timed out and is not there yet: it may still be in flight', async () => {
    const api = new FakeApi({
      fault: faultsOn({ createMonitor: { 1: { type: 'fail', error: lostAnswer('createMonitor') } } }),
    });
    const result = await run([createMonitor('mx-eu-3'), createAlert('mx-eu-3', 'down', ref('monitor:mx-eu-3'))], api).promise;
    expect(result.results[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.results[0]!.error).toMatch(/may still create it/);
    expect(result.results[1]!.status).toBe('skipped');
    expect(api.callsNamed('createMonitor')).toHaveLength(1);
    expect(api.callsNamed('listMonitors')).toHaveLength(1);
  });

  it('reports a lost group create it found with the group read in full', async () => {
    const api = new FakeApi({ fault: (c) => (c.name === 'createGroup' ? { type: 'lose' } : undefined) });
    const m = api.seedMonitor('mx-us-1');
    const result = await run([createGroup('g', [m.id])], api).promise;
    expect(result.results[0]).toMatchObject({ status: 'done', attempts: 1, live: { name: 'g', members: [{ id: m.id, label: 'mx-us-1' }] } });
    expect(api.groups.size).toBe(1);
  });
});

describe('executePlan: interruption and bad plans', () => {
  it('on abort starts nothing new, lets the running call finish and reports the rest as interrupted', async () => {
    const first = deferred();
    const api = new FakeApi({ gate: (c) => (c.seq === 1 ? first.promise : undefined) });
    const controller = new AbortController();
    const { promise, events } = run([createMonitor('a'), createMonitor('b'), createAlert('a', 'down', ref('monitor:a'))], api, {
      parallelism: 1,
      signal: controller.signal,
    });
    await flush();
    controller.abort();
    first.resolve();
    const result = await promise;
    expect(result.interrupted).toBe(true);
    expect(result.results.map((r) => [r.status, r.reason])).toEqual([
      ['done', undefined],
      ['skipped', 'interrupted'],
      ['skipped', 'interrupted'],
    ]);
    expect(result).toMatchObject({ done: 1, failed: 0, skipped: 0, notStarted: 2 });
    expect(api.calls).toHaveLength(1);
    expect(events.filter((e) => e.type === 'finished')).toHaveLength(3);
  });

  it('passes its signal to every call, and a call the abort cut short makes the run interrupted', async () => {
    const controller = new AbortController();
    const api = new FakeApi();
    const m = api.seedMonitor('m');
    const signals: (AbortSignal | undefined)[] = [];
    // As the client does when the abort comes during its backoff: no retry, and the error says so.
    api.updateMonitor = async (id, _body, opts) => {
      signals.push(opts?.signal);
      opts?.onAttempt?.(1);
      controller.abort();
      throw unavailable('updateMonitor', [id]).withFollowUp('; interrupted before retrying', { interrupted: true });
    };
    const result = await run([updateMonitor('m', m.id, { timer: 10 })], api, { signal: controller.signal }).promise;
    expect(signals).toEqual([controller.signal]);
    expect(result.interrupted).toBe(true);
    expect(result.results[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.results[0]!.error).toMatch(/interrupted before retrying$/);
  });

  it('an abort after the last change has started still lets it complete and is not an interruption', async () => {
    const gate = deferred();
    const api = new FakeApi({ gate: () => gate.promise });
    const controller = new AbortController();
    const { promise } = run([createMonitor('a')], api, { signal: controller.signal });
    await flush();
    controller.abort();
    gate.resolve();
    const result = await promise;
    expect(result).toMatchObject({ done: 1, interrupted: false });
  });

  it('fails changes the plan cannot support (unknown dependency, cycle) before any call, and skips what needs them', async () => {
    const api = new FakeApi();
    const a = { ...createMonitor('a'), depends_on: ['monitor:b'] };
    const b = { ...createMonitor('b'), depends_on: ['monitor:a'] };
    const c = createAlert('a', 'down', ref('monitor:a'));
    const d = { ...createMonitor('d'), depends_on: ['monitor:nowhere'] };
    const e = createMonitor('e');
    const result = await run([a, b, c, d, e], api).promise;
    expect(result.results.map((r) => r.status)).toEqual(['failed', 'failed', 'skipped', 'failed', 'done']);
    expect(result.results[0]!.error).toMatch(/cycle/);
    expect(result.results[3]!.error).toMatch(/"monitor:nowhere", which is not in the plan/);
    expect(api.callsNamed('createMonitor')).toHaveLength(1);
  });

  it('treats a ref in the body as a dependency even when depends_on forgets it', async () => {
    const slow = deferred();
    const api = new FakeApi({ gate: (c) => (c.name === 'createMonitor' ? slow.promise : undefined) });
    const { promise } = run([createMonitor('a'), createAlert('a', 'down', ref('monitor:a'), [])], api);
    await flush();
    expect(api.callsNamed('createAlert')).toHaveLength(0);
    slow.resolve();
    expect((await promise).done).toBe(2);
  });

  it('reports an empty plan as complete without calls', async () => {
    const api = new FakeApi();
    const result = await run([], api).promise;
    expect(result).toMatchObject({ results: [], done: 0, failed: 0, skipped: 0, notStarted: 0, interrupted: false });
    expect(api.calls).toHaveLength(0);
  });
});

describe('executePlan: a refused delete is "already gone" only when the service says the id is unknown', () => {
  // The "already gone" test matched the bare word "unknown", so a delete the service refused with
  // "unknown error" (or "unknown field ...") was reported as done: apply said "Apply complete" and
  // exited 0 while the monitor was still there.
  it.each(['Unknown error', 'unknown error, try again later', 'cannot delete: unknown state'])('fails the delete refused with %j', async (text) => {
    const api = new FakeApi({ fault: (c) => (c.name === 'deleteMonitor' ? { type: 'fail', error: refused('deleteMonitor', text) } : undefined) });
    const m = api.seedMonitor('mx-old');
    const result = await executePlan(makePlan([deleteChange('monitor', 'mx-old', m.id)]), api, { parallelism: 1, owner: OWNER });
    expect(result.results[0]).toMatchObject({ status: 'failed' });
    expect(result.failed).toBe(1);
  });

  it.each(['Unknown group id 9', 'unknown id "9"', 'group 9 not found', 'no such group', 'group does not exist'])('counts a delete refused with %j as already gone', async (text) => {
    const api = new FakeApi({ fault: (c) => (c.name === 'deleteGroup' ? { type: 'fail', error: refused('deleteGroup', text) } : undefined) });
    const result = await executePlan(makePlan([deleteChange('group', 'old', '9')]), api, { parallelism: 1, owner: OWNER });
    expect(result.results[0]).toMatchObject({ status: 'done', note: 'already gone' });
  });
});
