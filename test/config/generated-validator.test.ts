import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { GENERATED, schemaValidatorSource } from '../../scripts/schema-validator.mjs';

describe('src/config/generated/validate-schema.ts', () => {
  it('is the validator compiled from schemas/monsync.schema.json (run `node scripts/schema-validator.mjs --write`)', () => {
    expect(readFileSync(GENERATED as string, 'utf8')).toBe(schemaValidatorSource());
  });

  it('follows the schema: a changed schema gives a different validator', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/monsync.schema.json', import.meta.url), 'utf8')) as {
      properties: Record<string, { description?: string }>;
    };
    schema.properties.version!.description = 'changed';
    expect(schemaValidatorSource(JSON.stringify(schema))).not.toBe(readFileSync(GENERATED as string, 'utf8'));
  });
});
