/**
 * The SMTP monitor fields are written once, in the model's table (MONITOR_SPEC_TABLE); the loader,
 * the planner and export derive their lists from it. The emulator keeps its own list on purpose (an
 * independent implementation of the service must not inherit monsync's mistakes): these tests hold
 * the two, and export's own written order, to the table.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { MONITOR_CREATE_FIELDS, validateMonitorBody } from '../../src/emulator/validate.js';
import { MONITOR_FACTORABLE } from '../../src/export/build.js';
import {
  MONITOR_SPEC_FIELDS,
  OPTIONAL_MONITOR_FIELDS,
  REQUIRED_MONITOR_FIELDS,
  type MonitorSpec,
  type MonitorSpecField,
} from '../../src/model/desired.js';

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('the SMTP monitor field table', () => {
  it('has a row for every field of MonitorSpec but meta, and no other', () => {
    expectTypeOf<Exclude<keyof MonitorSpec, 'meta'>>().toEqualTypeOf<MonitorSpecField>();
    expect(new Set(MONITOR_SPEC_FIELDS).size).toBe(MONITOR_SPEC_FIELDS.length);
  });

  it('splits into the four fields every monitor has and the ones the service defaults, in plan order', () => {
    expect(REQUIRED_MONITOR_FIELDS).toEqual(['ip_address', 'test_account', 'timer', 'time_zone']);
    expect([...REQUIRED_MONITOR_FIELDS, ...OPTIONAL_MONITOR_FIELDS]).toEqual(MONITOR_SPEC_FIELDS);
  });

  it('is what the emulator accepts in a create body, besides type, label and meta', () => {
    expect(sorted(MONITOR_CREATE_FIELDS)).toEqual(sorted(['type', 'label', 'meta', ...MONITOR_SPEC_FIELDS]));
  });

  it('requires on create what the emulator requires, besides type and label', () => {
    let message = '';
    try {
      validateMonitorBody({}, 'create');
    } catch (err) {
      message = err instanceof Error ? err.message : String(err);
    }
    const required = [...message.matchAll(/(\w+): required/g)].map((m) => m[1]!);
    expect(sorted(required)).toEqual(sorted(['type', 'label', ...REQUIRED_MONITOR_FIELDS]));
  });

  it('is written whole by export: the per-monitor fields first, every other one factorable', () => {
    expect(sorted(['ip_address', 'test_account', ...MONITOR_FACTORABLE])).toEqual(sorted(MONITOR_SPEC_FIELDS));
  });
});
