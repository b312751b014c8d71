import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { GENERATED, GENERATED_ACCEPT, schemaAcceptorSource, schemaValidatorSource } from '../../scripts/schema-validator.mjs';
import { parseSource, toPlainData } from '../../src/config/parse.js';
import { schemaAccepts } from '../../src/config/fast/accept.js';
import { validate as fullValidate } from '../../src/config/generated/validate-schema.js';

const root = path.join(import.meta.dirname, '..', '..');

describe('src/config/generated/validate-schema.ts and fast/generated/accept-schema.ts', () => {
  it('are the validators compiled from schemas/monsync.schema.json (run `node scripts/schema-validator.mjs --write`)', () => {
    expect(readFileSync(GENERATED as string, 'utf8')).toBe(schemaValidatorSource());
    expect(readFileSync(GENERATED_ACCEPT as string, 'utf8')).toBe(schemaAcceptorSource());
  });

  it('follow the schema: a changed schema gives different validators', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/monsync.schema.json', import.meta.url), 'utf8')) as {
      properties: Record<string, { description?: string }>;
    };
    schema.properties.version!.description = 'changed';
    expect(schemaValidatorSource(JSON.stringify(schema))).not.toBe(readFileSync(GENERATED as string, 'utf8'));
    expect(schemaAcceptorSource(JSON.stringify(schema))).not.toBe(readFileSync(GENERATED_ACCEPT as string, 'utf8'));
  });

  it('agree: the accept-only validator takes exactly the data the full one finds nothing wrong with', () => {
    let accepted = 0;
    let refused = 0;
    for (const dir of ['examples/realistic', 'examples/small', 'test/fixtures/bad']) {
      for (const name of readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.yaml'))) {
        const text = readFileSync(path.join(root, dir, name), 'utf8');
        const { parsed } = parseSource({ path: name, display: name, text });
        // Files the YAML stage refuses never reach a validator.
        if (!parsed) continue;
        const { data } = toPlainData(parsed);
        if (!data) continue;
        const passes = (fullValidate as (d: unknown) => boolean)(data) === true;
        expect(schemaAccepts(data), `${dir}/${name}`).toBe(passes);
        if (passes) accepted++;
        else refused++;
      }
    }
    expect(accepted).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(20);
  });

  it('agree on generated data: the accept-only one never takes what the full one refuses', () => {
    const full = fullValidate as (d: unknown) => boolean;
    // Short names from a small alphabet, so lists often repeat one; "__proto__" is the one name a
    // repeat of which ajv's own uniqueItems cannot see (the acceptor refuses it: the full path decides).
    const name = fc.oneof(fc.constantFrom('', 'a', 'b', '__proto__', 'toString', 'é'), fc.string({ maxLength: 3 }));
    const names = fc.array(name, { maxLength: 4 });
    const alert = fc.record(
      { subject_init: name, subject_term: name, timeout: fc.integer({ min: -1, max: 3 }), alert_destinations: names, previous_subjects: names },
      { requiredKeys: ['subject_init', 'subject_term'] },
    );
    const monitor = fc.record(
      { label: name, previous_labels: names, timer: fc.constantFrom(3, 4, 5), meta: fc.dictionary(name, name, { maxKeys: 2 }), alerts: fc.array(alert, { maxLength: 2 }) },
      { requiredKeys: ['label'] },
    );
    const group = fc.record({ name, previous_names: names, monitors: names }, { requiredKeys: ['name'] });
    const file = fc.record(
      { version: fc.constant(1), settings: fc.record({ ignore: names }), monitors: fc.array(monitor, { maxLength: 2 }), groups: fc.array(group, { maxLength: 2 }) },
      { requiredKeys: ['version'] },
    );
    let both = 0;
    fc.assert(
      fc.property(file, (data) => {
        const fullAccepts = full(data) === true;
        if (schemaAccepts(data)) {
          expect(fullAccepts).toBe(true);
          both++;
        } else if (fullAccepts) {
          expect(JSON.stringify(data)).toContain('"__proto__"');
        }
      }),
      { numRuns: 3000 },
    );
    expect(both).toBeGreaterThan(100);
  });
});
