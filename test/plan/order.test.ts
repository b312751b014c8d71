import { describe, expect, it } from 'vitest';
import { orderChanges, phaseOf, refsInBody, summarize } from '../../src/plan/order.js';
import type { Change, ChangeAction, ChangeKind } from '../../src/plan/types.js';

function ch(action: ChangeAction, kind: ChangeKind, key: string, p: Partial<Change> = {}): Change {
  return {
    ref: `${kind}:${key}`,
    action,
    kind,
    key,
    id: action === 'create' ? null : `id-${key}`,
    before: null,
    after: null,
    changed: [],
    depends_on: [],
    call: { method: action === 'create' ? 'POST' : action === 'update' ? 'PUT' : 'DELETE', path: '/x/' },
    ...p,
  };
}

describe('orderChanges', () => {
  it('orders by phase, then key, whatever the input order', () => {
    const input = [
      ch('delete', 'group', 'g-old'),
      ch('delete', 'monitor', 'm-old'),
      ch('delete', 'alert', 'm / old'),
      ch('update', 'group', 'g2'),
      ch('create', 'group', 'g1'),
      ch('update', 'alert', 'm / b'),
      ch('create', 'alert', 'm / a'),
      ch('update', 'monitor', 'z'),
      ch('create', 'monitor', 'b'),
      ch('create', 'monitor', 'a'),
    ];
    const expected = ['monitor:a', 'monitor:b', 'monitor:z', 'alert:m / a', 'alert:m / b', 'group:g1', 'group:g2', 'alert:m / old', 'monitor:m-old', 'group:g-old'];
    expect(orderChanges(input).map((c) => c.ref)).toEqual(expected);
    expect(orderChanges([...input].reverse()).map((c) => c.ref)).toEqual(expected);
  });

  it('fills depends_on from IdRefs in bodies, keeps given ordering deps, drops unknown refs', () => {
    const out = orderChanges([
      ch('delete', 'monitor', 'old', { depends_on: ['group:g', 'group:elsewhere'] }),
      ch('update', 'group', 'g', { call: { method: 'PUT', path: '/g/', body: { monitors: ['1', { $ref: 'monitor:n' }, { $ref: 'monitor:n' }], replace: true } } }),
      ch('create', 'alert', 'n / s', { call: { method: 'POST', path: '/a/', body: { monitor: { $ref: 'monitor:n' } } } }),
      ch('create', 'monitor', 'n'),
    ]);
    const deps = Object.fromEntries(out.map((c) => [c.ref, c.depends_on]));
    expect(deps).toEqual({ 'monitor:n': [], 'alert:n / s': ['monitor:n'], 'group:g': ['monitor:n'], 'monitor:old': ['group:g'] });
  });

  it('does not mutate its input', () => {
    const input = [ch('create', 'alert', 'n / s', { call: { method: 'POST', path: '/a/', body: { monitor: { $ref: 'monitor:n' } } } }), ch('create', 'monitor', 'n')];
    const copy = structuredClone(input);
    orderChanges(input);
    expect(input).toEqual(copy);
  });

  it('refuses a dependency that would run later', () => {
    expect(() => orderChanges([ch('create', 'monitor', 'n', { depends_on: ['group:g'] }), ch('create', 'group', 'g')])).toThrow(/depends on later/);
  });
});

describe('helpers', () => {
  it('phaseOf', () => {
    expect([phaseOf({ action: 'update', kind: 'monitor' }), phaseOf({ action: 'create', kind: 'alert' }), phaseOf({ action: 'delete', kind: 'group' })]).toEqual([0, 1, 5]);
  });
  it('refsInBody ignores strings and objects that merely contain $ref among other keys', () => {
    expect(refsInBody({ a: '$ref', b: { $ref: 'x', other: 1 }, c: [{ $ref: 'y' }] })).toEqual(['y']);
    expect(refsInBody(undefined)).toEqual([]);
  });
  it('summarize', () => {
    expect(summarize([ch('create', 'monitor', 'a'), ch('create', 'alert', 'b'), ch('delete', 'group', 'c')])).toEqual({ create: 2, update: 0, delete: 1 });
  });
});
