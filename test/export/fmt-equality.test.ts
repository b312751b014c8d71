/**
 * Export lays out the document it builds with fmt's own steps (formatBuiltDocument) instead of
 * printing it, parsing it back and rewriting it with formatConfigText. This holds the two equal on a
 * large generated account with every field kind, groups, alerts, meta and text YAML or a terminal
 * treats specially: fmt's rewrite of each exported file, escaped as export escapes it, is the file.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportConfig } from '../../src/export/index.js';
import { escapeControl } from '../../src/util/safe-text.js';
import { formatted } from '../fmt/helpers.js';
import { generated } from './generated-account.js';

describe('export of a large account', () => {
  const account = generated(500);

  for (const split of [false, true]) {
    it(`writes every file exactly as fmt rewrites it, hostile text escaped after (${split ? 'one file per group' : 'one file'})`, async () => {
      const files = exportConfig(account, { owner: 'monsync', schemaPath: '../schemas/monsync.schema.json', split }).files;
      expect(files.length).toBe(split ? 32 : 1);
      for (const f of files) expect(escapeControl(await formatted(f.content)), f.name).toBe(f.content);
      // And the files read back as the account's text: nothing escaped where YAML does not unescape.
      const read = files.map((f) => parse(f.content) as { monitors?: { label: string; meta?: Record<string, string> }[] });
      const ours = account.monitors.filter((m) => m.type === 'smtp' && m.meta['managed-by'] === 'monsync');
      expect(read.flatMap((d) => d.monitors ?? []).map((m) => m.label).sort()).toEqual(ours.map((m) => m.label).sort());
      const metaOf = (meta: Record<string, string>) => Object.entries(meta).filter(([k]) => k !== 'managed-by').sort();
      expect(read.flatMap((d) => d.monitors ?? []).map((m) => metaOf(m.meta ?? {})).sort()).toEqual(ours.map((m) => metaOf(m.meta)).sort());
    }, 120_000);
  }
});
