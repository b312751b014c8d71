/**
 * The cross-check of one account read (issue 12, section 1): each relation between the lists on its
 * own, the messages, the one re-read, and two properties over generated accounts: a consistent
 * account never reports, and removing any item another list names always reports it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/util/errors.js';
import {
  AccountContradictionError,
  checkAccountConsistency,
  compareIds,
  describeContradiction,
  healedWarning,
  mergeRepeats,
  readConsistently,
  type AccountLists,
  type Contradiction,
  type ListName,
} from '../../src/plan/consistency.js';

const mon = (id: string, alerts: string[] = [], groups: string[] | null = []) => ({ id, alerts, groups });
const alert = (id: string, monitor: string, alert_destinations: string[] = []) => ({ id, monitor, alert_destinations });
const group = (id: string, members: string[] = []) => ({ id, members: members.map((m) => ({ id: m, label: null })) });
const dest = (id: string) => ({ id });

/** A small account whose lists agree: two monitors, their alerts, a group, two destinations. */
const consistent = (): Required<AccountLists> => ({
  monitors: [mon('10', ['50'], ['300']), mon('11', ['51'], ['300'])],
  alerts: [alert('50', '10', ['700']), alert('51', '11', ['700', '701'])],
  groups: [group('300', ['10', '11'])],
  membersFrom: 'group-reads',
  destinations: [dest('700'), dest('701')],
});

describe('checkAccountConsistency, relation by relation', () => {
  it('finds nothing in an account whose lists agree', () => {
    expect(checkAccountConsistency(consistent())).toEqual([]);
  });

  it("reports alerts whose monitor is not in the monitor list, with every missing id once, in id order", () => {
    const lists = { ...consistent(), monitors: [] };
    lists.alerts = [...lists.alerts, alert('52', '9'), alert('53', '10')];
    expect(checkAccountConsistency(lists)).toContainEqual({ naming: 'alert', missingFrom: 'monitor', ids: ['9', '10', '11'] });
  });

  it("reports alert ids in a monitor's `alerts` field that the alert list does not contain", () => {
    expect(checkAccountConsistency({ ...consistent(), alerts: [alert('51', '11')], destinations: undefined })).toEqual([
      { naming: 'monitor', missingFrom: 'alert', ids: ['50'] },
    ]);
  });

  it("reports group ids in a monitor's `groups` field that the group list does not contain, and skips monitors without the field", () => {
    const lists = { ...consistent(), monitors: [mon('10', ['50'], ['300', '301']), mon('11', ['51'], null)] };
    expect(checkAccountConsistency(lists)).toEqual([{ naming: 'monitor', missingFrom: 'group', ids: ['301'] }]);
    expect(checkAccountConsistency({ ...lists, groups: [] })).toEqual([{ naming: 'monitor', missingFrom: 'group', ids: ['300', '301'] }]);
  });

  it('reports group members from single-group reads that the monitor list does not contain', () => {
    const lists = { ...consistent(), groups: [group('300', ['10', '11', '12'])] };
    expect(checkAccountConsistency(lists)).toEqual([{ naming: 'group-reads', missingFrom: 'monitor', ids: ['12'] }]);
    // Members derived from the monitors' own `groups` fields come from the monitor list itself.
    expect(checkAccountConsistency({ ...lists, membersFrom: 'monitor-fields' })).toEqual([]);
  });

  it('reports destinations named by alerts that the destination list does not contain', () => {
    expect(checkAccountConsistency({ ...consistent(), destinations: [dest('700')] })).toEqual([
      { naming: 'alert', missingFrom: 'destination', ids: ['701'] },
    ]);
  });

  it("reports an alert listed on a monitor whose own `alerts` field does not name it (issue 23: a stale second entry)", () => {
    const lists = { ...consistent(), alerts: [...consistent().alerts, alert('59', '10', ['700'])] };
    expect(checkAccountConsistency(lists)).toEqual([{ kind: 'unnamed', naming: 'alert', field: 'alerts', ids: ['59'] }]);
    // A monitor of another type that reports no `alerts` field says nothing about its alerts.
    const ping = { ...consistent(), monitors: [...consistent().monitors, { ...mon('12', []), type: 'ping' }], alerts: [...consistent().alerts, alert('60', '12')] };
    expect(checkAccountConsistency(ping)).toEqual([]);
  });

  it("reports a member of a group read singly whose own `groups` field does not name the group", () => {
    const lists = { ...consistent(), monitors: [mon('10', ['50'], ['300']), mon('11', ['51'], [])] };
    expect(checkAccountConsistency(lists)).toEqual([{ kind: 'unnamed', naming: 'group-reads', field: 'groups', ids: ['300'] }]);
    // A monitor without the field is not checked.
    expect(checkAccountConsistency({ ...lists, monitors: [mon('10', ['50'], ['300']), mon('11', ['51'], null)] })).toEqual([]);
  });

  it('reports an id a list holds twice with differing copies; identical copies are one entry', () => {
    const same = { ...consistent(), alerts: [...consistent().alerts, alert('50', '10', ['700'])] };
    expect(checkAccountConsistency(same)).toEqual([]);
    const differing = { ...consistent(), alerts: [...consistent().alerts, alert('50', '10', ['701'])] };
    expect(checkAccountConsistency(differing)).toEqual([{ kind: 'repeated', list: 'alert', ids: ['50'] }]);
  });

  it('mergeRepeats keeps one of identical copies, in first-seen order, and every differing copy', () => {
    const a = alert('50', '10');
    expect(mergeRepeats([a, alert('51', '10'), { ...a }])).toEqual([a, alert('51', '10')]);
    expect(mergeRepeats([a, alert('51', '10'), alert('50', '11')])).toEqual([a, alert('50', '11'), alert('51', '10')]);
    const untouched = [a];
    expect(mergeRepeats(untouched)).toBe(untouched);
  });

  it('checks only the relations whose two lists were read', () => {
    const { monitors, alerts } = consistent();
    // Without the alert list nothing names a monitor, and the monitors' `alerts` fields cannot be checked.
    expect(checkAccountConsistency({ monitors: [], destinations: [] })).toEqual([]);
    expect(checkAccountConsistency({ monitors })).toEqual([]);
    expect(checkAccountConsistency({ alerts })).toEqual([]);
    expect(checkAccountConsistency({ monitors, alerts: [] })).toEqual([{ naming: 'monitor', missingFrom: 'alert', ids: ['50', '51'] }]);
  });
});

describe('messages', () => {
  it('name the two lists, how many ids and an example, in the singular for one', () => {
    expect(describeContradiction({ naming: 'alert', missingFrom: 'monitor', ids: ['10034', '10035'] })).toBe(
      'the alert list names 2 monitors the monitor list does not contain (e.g. id 10034)',
    );
    expect(describeContradiction({ naming: 'monitor', missingFrom: 'group', ids: ['301'] })).toBe(
      'the monitor list names 1 group the group list does not contain (e.g. id 301)',
    );
    expect(describeContradiction({ naming: 'group-reads', missingFrom: 'monitor', ids: ['7'] })).toBe(
      'the single-group reads name 1 monitor the monitor list does not contain (e.g. id 7)',
    );
  });

  it('the error is a UserError (exit 1, no stack) saying which list was incomplete and that nothing was sent', () => {
    const ids = Array.from({ length: 30 }, (_, i) => String(10034 + i));
    const err = new AccountContradictionError([{ naming: 'alert', missingFrom: 'monitor', ids }]);
    expect(err).toBeInstanceOf(UserError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(
      'the alert list names 30 monitors the monitor list does not contain (e.g. id 10034): the service answered an incomplete monitor list; nothing was sent',
    );
    expect(err.details.join('\n')).toContain('read twice');
  });

  it('with several contradictions: the first in the message, the others in the details, every incomplete list named', () => {
    const err = new AccountContradictionError([
      { naming: 'alert', missingFrom: 'monitor', ids: ['10'] },
      { naming: 'monitor', missingFrom: 'alert', ids: ['50', '51'] },
      { naming: 'alert', missingFrom: 'destination', ids: ['700'] },
    ]).withConsequence('no file was written');
    expect(err.message).toBe(
      'the alert list names 1 monitor the monitor list does not contain (e.g. id 10): the service answered incomplete monitor, alert and destination lists; no file was written',
    );
    expect(err.details.slice(0, 2)).toEqual([
      '  - also: the monitor list names 2 alerts the alert list does not contain (e.g. id 50)',
      '  - also: the alert list names 1 destination the destination list does not contain (e.g. id 700)',
    ]);
  });

  it('a healed read is a warning naming what the first read contradicted', () => {
    expect(healedWarning([{ naming: 'monitor', missingFrom: 'alert', ids: ['50'] }])).toBe(
      'the first read of the account contradicted itself (the monitor list names 1 alert the alert list does not contain (e.g. id 50)); read again: consistent.',
    );
  });

  it('ids sort numbers by value, then the rest in code-point order', () => {
    expect(['b', '100', '9', 'a10', '10', 'A'].sort(compareIds)).toEqual(['9', '10', '100', 'A', 'a10', 'b']);
  });
});

describe('readConsistently', () => {
  const lists = (x: AccountLists) => x;

  it('reads once when the first read agrees with itself', async () => {
    let reads = 0;
    const r = await readConsistently(async () => (reads++, consistent()), lists);
    expect(reads).toBe(1);
    expect(r.healed).toEqual([]);
  });

  it('reads once more after a contradiction and returns the second read, with what the first contradicted', async () => {
    const answers: AccountLists[] = [{ ...consistent(), monitors: [] }, consistent()];
    let reads = 0;
    const r = await readConsistently(async () => answers[reads++]!, lists);
    expect(reads).toBe(2);
    expect(r.value).toBe(answers[1]);
    expect(r.healed).toEqual([
      { naming: 'alert', missingFrom: 'monitor', ids: ['10', '11'] },
      { naming: 'group-reads', missingFrom: 'monitor', ids: ['10', '11'] },
    ]);
  });

  it('throws AccountContradictionError with the second read\'s contradictions when it contradicts itself too, and reads no third time', async () => {
    const answers: AccountLists[] = [{ ...consistent(), monitors: [] }, { ...consistent(), alerts: [] }];
    let reads = 0;
    const run = readConsistently(async () => answers[reads++]!, lists);
    await expect(run).rejects.toBeInstanceOf(AccountContradictionError);
    await expect(run).rejects.toMatchObject({ contradictions: [{ naming: 'monitor', missingFrom: 'alert', ids: ['50', '51'] }] });
    expect(reads).toBe(2);
  });
});

// ------------------------------------------------------------------------------------------------
// Properties over generated accounts.

interface Generated {
  lists: Required<AccountLists>;
  /** Ids another list names, per list: removing one of them must be reported. */
  referenced: Record<ListName, Set<string>>;
}

const accountArb: fc.Arbitrary<Generated> = fc
  .record({
    monitors: fc.integer({ min: 0, max: 8 }),
    destinations: fc.integer({ min: 0, max: 4 }),
    groups: fc.integer({ min: 0, max: 4 }),
    membersFrom: fc.constantFrom('monitor-fields' as const, 'group-reads' as const),
  })
  .chain((n) =>
    fc.record({
      n: fc.constant(n),
      // Each alert: its monitor's index and its destinations' indexes.
      alerts: n.monitors === 0 ? fc.constant([] as { monitor: number; dests: number[] }[]) : fc.array(fc.record({ monitor: fc.nat(n.monitors - 1), dests: fc.subarray([...Array(n.destinations).keys()]) }), { maxLength: 12 }),
      // Each monitor: the groups it belongs to, and whether the service gave its `groups` field.
      membership: fc.array(fc.record({ groups: fc.subarray([...Array(n.groups).keys()]), reported: fc.boolean() }), {
        minLength: n.monitors,
        maxLength: n.monitors,
      }),
      // Ids need not be numbers, nor be given in order.
      idBase: fc.constantFrom(100, 10034, 7),
    }),
  )
  .map(({ n, alerts, membership, idBase }) => {
    const mId = (i: number) => `${idBase + i}`;
    const aId = (i: number) => `a-${i}`;
    const gId = (i: number) => `g${i}`;
    const dId = (i: number) => `${900 + i}`;
    const referenced: Generated['referenced'] = { monitor: new Set(), alert: new Set(), group: new Set(), destination: new Set() };
    const monitors = membership.map((m, i) => {
      const mine = alerts.flatMap((a, j) => (a.monitor === i ? [aId(j)] : []));
      mine.forEach((id) => referenced.alert.add(id));
      if (m.reported) m.groups.forEach((g) => referenced.group.add(gId(g)));
      return mon(mId(i), mine, m.reported ? m.groups.map(gId) : null);
    });
    const alertList = alerts.map((a, j) => {
      referenced.monitor.add(mId(a.monitor));
      a.dests.forEach((d) => referenced.destination.add(dId(d)));
      return alert(aId(j), mId(a.monitor), a.dests.map(dId));
    });
    const groups = [...Array(n.groups).keys()].map((g) => {
      // From single-group reads every member is listed; derived from the monitors' fields only those that report it.
      const members = membership.flatMap((m, i) => (m.groups.includes(g) && (n.membersFrom === 'group-reads' || m.reported) ? [mId(i)] : []));
      if (n.membersFrom === 'group-reads') members.forEach((id) => referenced.monitor.add(id));
      return group(gId(g), members);
    });
    const destinations = [...Array(n.destinations).keys()].map((d) => dest(dId(d)));
    return {
      lists: { monitors, alerts: alertList, groups, membersFrom: n.membersFrom, destinations },
      referenced,
    };
  });

const LIST_KEY = { monitor: 'monitors', alert: 'alerts', group: 'groups', destination: 'destinations' } as const;

describe('properties', () => {
  it('a consistent generated account never reports a contradiction', () => {
    fc.assert(
      fc.property(accountArb, ({ lists }) => {
        expect(checkAccountConsistency(lists)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('removing any item another list names always reports it, as missing from its own list', () => {
    const withRemoval = accountArb
      .filter((g) => Object.values(g.referenced).some((s) => s.size > 0))
      .chain((g) => {
        const choices = (Object.keys(g.referenced) as ListName[]).flatMap((list) => [...g.referenced[list]].map((id) => ({ list, id })));
        return fc.record({ g: fc.constant(g), removed: fc.constantFrom(...choices) });
      });
    fc.assert(
      fc.property(withRemoval, ({ g, removed }) => {
        const key = LIST_KEY[removed.list];
        const lists = { ...g.lists, [key]: (g.lists[key] as readonly { id: string }[]).filter((x) => x.id !== removed.id) };
        const found: Contradiction[] = checkAccountConsistency(lists);
        expect(found.some((c) => c.kind === undefined && c.missingFrom === removed.list && c.ids.includes(removed.id))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
