/**
 * schemas/monsync.schema.json repeats the monitor fields twice, the alert fields three times and the
 * check names five times: those parts are made from the field tables (src/model/fields.ts) and the
 * check catalogue by src/checks/config-schema.ts. A stale file fails here; refresh it with
 * `npx vitest run test/config/schema-generated.test.ts -u`, then `npm run build` (validators) and
 * `node scripts/config-reference.mjs --write` (README).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConfigSchema, renderConfigSchemaText } from '../../src/checks/config-schema.js';
import { CHECKS } from '../../src/checks/catalogue.js';
import { MONITOR_FIELD_TABLE } from '../../src/model/fields.js';

const SCHEMA_URL = new URL('../../schemas/monsync.schema.json', import.meta.url);
const committed = (): unknown => JSON.parse(readFileSync(SCHEMA_URL, 'utf8'));

type Node = { properties: Record<string, Node>; items: Node; enum?: unknown[]; description?: string };

describe('schemas/monsync.schema.json', () => {
  it('is what the field tables and the check catalogue make of it', async () => {
    await expect(renderConfigSchemaText(committed())).toMatchFileSnapshot('../../schemas/monsync.schema.json');
  });

  it('takes a new monitor field from one row, in defaults.monitor and in monitors[], before meta', () => {
    const row = { field: 'helo_name', required: false, default: '', plan: 12, export: 10, schema: { type: 'string', description: 'HELO name.' } } as const;
    (MONITOR_FIELD_TABLE as unknown as unknown[]).push(row);
    try {
      const s = renderConfigSchema(committed()) as unknown as Node;
      for (const props of [s.properties.defaults!.properties.monitor!.properties, s.properties.monitors!.items.properties]) {
        expect(props.helo_name).toEqual({ type: 'string', description: 'HELO name.' });
        expect(Object.keys(props).indexOf('helo_name')).toBe(Object.keys(props).indexOf('meta') - 1);
      }
    } finally {
      (MONITOR_FIELD_TABLE as unknown as unknown[]).pop();
    }
  });

  it('names every check of the catalogue in settings.checks and in each disable_checks', () => {
    const s = renderConfigSchema(committed()) as unknown as Node;
    const names = CHECKS.map((c) => c.name);
    const monitor = s.properties.monitors!.items;
    const lists = [
      monitor.properties.disable_checks!,
      monitor.properties.alerts!.items.properties.disable_checks!,
      s.properties.alerts!.items.properties.disable_checks!,
      s.properties.groups!.items.properties.disable_checks!,
    ];
    for (const list of lists) expect(list.items.enum).toEqual(names);
    expect(Object.keys(s.properties.settings!.properties.checks!.properties)).toEqual(names);
  });
});
