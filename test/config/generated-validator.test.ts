import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { GENERATED, GENERATED_ACCEPT, schemaAcceptorSource, schemaValidatorSource } from '../../scripts/schema-validator.mjs';
import { parseSource, toPlainData } from '../../src/config/parse.js';
import { schemaAccepts } from '../../src/config/schema-accepts.js';
import { validate as fullValidate } from '../../src/config/generated/validate-schema.js';

const root = path.join(import.meta.dirname, '..', '..');

describe('src/config/generated/validate-schema.ts and accept-schema.ts', () => {
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
});
