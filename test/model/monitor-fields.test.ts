/**
 * The fields of monitors, alerts and groups are written once, in the tables of src/model/fields.ts;
 * the loader, the planner, the normaliser and export derive their lists, types and defaults from
 * them. The emulator keeps its own table on purpose (an independent implementation of the service
 * must not inherit monsync's mistakes): these tests hold the two, and export's written order, to
 * the tables.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ALERT_FIELDS as EMULATOR_ALERT_FIELDS,
  MONITOR_BODY_TABLE,
  MONITOR_CREATE_FIELDS,
  validateGroupBody,
  validateMonitorBody,
} from '../../src/emulator/validate.js';
import { MONITOR_FACTORABLE } from '../../src/export/build.js';
import {
  MONITOR_SPEC_FIELDS,
  OPTIONAL_MONITOR_FIELDS,
  REQUIRED_MONITOR_FIELDS,
  type MonitorSpec,
  type MonitorSpecField,
} from '../../src/model/desired.js';
import { ALERT_FIELD_NAMES, GROUP_FIELD_TABLE, MONITOR_FIELD_TABLE, type MonitorFieldRow } from '../../src/model/fields.js';
import { DOCUMENTED_MONITOR_DEFAULTS, type Monitor } from '../../src/model/live.js';

const sorted = (xs: readonly string[]) => [...xs].sort();

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return '';
}

const VALID_CREATE = { type: 'smtp', label: 'x', timer: 5, time_zone: 'UTC', ip_address: 'mx.example.com', test_account: 'probe@example.com' };

describe('the SMTP monitor field table', () => {
  it('has a row for every field of MonitorSpec but meta, and no other', () => {
    expectTypeOf<Exclude<keyof MonitorSpec, 'meta'>>().toEqualTypeOf<MonitorSpecField>();
    expectTypeOf<Monitor['port']>().toEqualTypeOf<number | null>();
    expect(new Set(MONITOR_SPEC_FIELDS).size).toBe(MONITOR_SPEC_FIELDS.length);
  });

  it('splits into the four fields every monitor has and the ones the service defaults, in plan order', () => {
    expect(REQUIRED_MONITOR_FIELDS).toEqual(['ip_address', 'test_account', 'timer', 'time_zone']);
    expect([...REQUIRED_MONITOR_FIELDS, ...OPTIONAL_MONITOR_FIELDS]).toEqual(MONITOR_SPEC_FIELDS);
  });

  it('gives every row a distinct place in plans and in export', () => {
    expect(sorted(MONITOR_FIELD_TABLE.map((r) => String(r.plan)))).toEqual(sorted(MONITOR_FIELD_TABLE.map((_, i) => String(i))));
    const places = MONITOR_FIELD_TABLE.flatMap((r) => (r.export === 'each' ? [] : [r.export]));
    expect(new Set(places).size).toBe(places.length);
  });

  it('is what the emulator accepts in a create body, besides type, label and meta, in the same order', () => {
    expect(MONITOR_CREATE_FIELDS).toEqual(['type', 'label', ...MONITOR_FIELD_TABLE.map((r) => r.field), 'meta']);
  });

  it('requires on create what the emulator requires, besides type and label', () => {
    const message = refusal(() => validateMonitorBody({}, 'create'));
    const required = [...message.matchAll(/(\w+): required/g)].map((m) => m[1]!);
    expect(sorted(required)).toEqual(sorted(['type', 'label', ...REQUIRED_MONITOR_FIELDS]));
  });

  it('documents the defaults the emulator stores for a field a create leaves out', () => {
    for (const row of MONITOR_BODY_TABLE) {
      if (row.required) continue;
      // The emulator stores "no attachment" as the wire's ''; monsync's canonical value is null.
      const stored = row.field === 'attachment' && row.createDefault === '' ? null : row.createDefault;
      expect(stored, row.field).toEqual((DOCUMENTED_MONITOR_DEFAULTS as Record<string, unknown>)[row.field]);
    }
    expect(sorted(MONITOR_BODY_TABLE.filter((r) => !r.required).map((r) => r.field))).toEqual(sorted(Object.keys(DOCUMENTED_MONITOR_DEFAULTS)));
  });

  it('allows the values the emulator allows: each enum value is accepted, one beside them refused', () => {
    for (const row of MONITOR_FIELD_TABLE as readonly MonitorFieldRow[]) {
      const allowed: readonly unknown[] = row.schema.enum ?? [];
      for (const v of allowed) {
        expect(refusal(() => validateMonitorBody({ ...VALID_CREATE, [row.field]: v }, 'create')), `${row.field}: ${String(v)}`).toBe('');
      }
      if (allowed.length > 0) {
        const outside = typeof allowed[0] === 'number' ? 7 : 'neither';
        expect(refusal(() => validateMonitorBody({ ...VALID_CREATE, [row.field]: outside }, 'create'))).toContain(row.field);
      }
      const { minimum, maximum } = row.schema;
      if (minimum !== undefined) expect(refusal(() => validateMonitorBody({ ...VALID_CREATE, [row.field]: minimum - 1 }, 'create'))).toContain(row.field);
      if (maximum !== undefined) expect(refusal(() => validateMonitorBody({ ...VALID_CREATE, [row.field]: maximum + 1 }, 'create'))).toContain(row.field);
    }
  });

  it('is written whole by export: the per-monitor fields first, every other one factorable', () => {
    expect(sorted(['ip_address', 'test_account', ...MONITOR_FACTORABLE])).toEqual(sorted(MONITOR_SPEC_FIELDS));
  });
});

describe('the alert and group field tables', () => {
  it('are what the emulator accepts, besides the alert type and its monitor', () => {
    expect(sorted(EMULATOR_ALERT_FIELDS)).toEqual(sorted(['type', 'monitor', ...ALERT_FIELD_NAMES]));
    const unknownField = refusal(() => validateGroupBody({ name: 'g', bogus: 1 }, 'create', () => true));
    expect(unknownField).toContain(`allowed: ${GROUP_FIELD_TABLE.map((r) => r.field).join(', ')}`);
  });
});
