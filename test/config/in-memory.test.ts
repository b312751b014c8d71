/**
 * Configurations given to loadConfig in memory (a program's own, as monsync used as a library builds
 * them): read exactly as files of that name would be, alone or together with files on disk.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { brief, diagnosticsOf, stateOf, writeTree } from './helpers.js';

const MONITOR = { label: 'mx-1', ip_address: 'mx.example.com', test_account: 'p@example.com', time_zone: 'Europe/London', timer: 5 };

describe('configurations in memory', () => {
  it('data loads as the JSON file JSON.stringify(data, null, 2) would be, with the same state and sources', async () => {
    const data = { version: 1, monitors: [MONITOR], groups: [{ name: 'g', monitors: ['mx-1'] }] };
    const dir = await writeTree({ 'gen.json': JSON.stringify(data, null, 2) });
    const fromFile = stateOf(await loadConfig(['gen.json'], { cwd: dir, env: {} }));
    const fromData = stateOf(await loadConfig([{ name: 'gen.json', data }], { cwd: dir, env: {} }));
    expect(fromData).toEqual(fromFile);
    // Whatever the name: data is JSON.
    const named = stateOf(await loadConfig([{ name: 'inventory.csv', data }], { cwd: dir, env: {} }));
    expect(named.monitors[0]!.source).toEqual({ file: 'inventory.csv', line: 4, column: 5 });
    expect(named.files).toEqual(['inventory.csv']);
  });

  it('text is read as a file of that name: JSON for .json, YAML otherwise', async () => {
    const yaml = stateOf(await loadConfig([{ name: 'a.yaml', text: 'version: 1\ngroups: [{ name: g }]\n' }], { env: {} }));
    expect(yaml.groups[0]!.source).toEqual({ file: 'a.yaml', line: 2, column: 10 });
    const json = await loadConfig([{ name: 'a.json', text: '{"version": 1,}' }], { env: {} });
    expect(diagnosticsOf(json).map(brief)).toEqual([
      { file: 'a.json', line: 1, column: 14, message: 'trailing comma: JSON allows no "," before "}"' },
    ]);
  });

  it('mistakes are diagnostics naming the configuration, line and field, never exceptions', async () => {
    const result = await loadConfig([{ name: 'gen', data: { version: 1, monitors: [{ ...MONITOR, timer: 7 }] } }], { env: {} });
    expect(diagnosticsOf(result).map(brief)).toEqual([
      { file: 'gen', line: 9, column: 16, message: 'timer must be one of 3, 5, 10, 15, 20, 30 minutes (got the number 7)' },
    ]);
    const cyclic: Record<string, unknown> = { version: 1 };
    cyclic.self = cyclic;
    const bad = await loadConfig([{ name: 'cyclic', data: cyclic }, { name: 'nothing', data: undefined }], { env: {} });
    expect(diagnosticsOf(bad).map((d) => `${d.file}:${d.line}:${d.column}: ${d.message.replace(/JSON: .*/s, 'JSON: ...')}`)).toEqual([
      'cyclic:1:1: cannot be written as JSON: ...',
      'nothing:1:1: cannot be written as JSON: ...',
    ]);
  });

  it('merges with files on disk, in the order given; without paths it does not look for monsync.yaml', async () => {
    const dir = await writeTree({ 'settings.yaml': 'version: 1\nsettings: { owner: gen }\n' });
    const state = stateOf(
      await loadConfig(['settings.yaml', { name: 'monitors.json', data: { version: 1, monitors: [MONITOR] } }], { cwd: dir, env: {} }),
    );
    expect(state.settings.owner).toBe('gen');
    expect(state.files).toEqual(['settings.yaml', 'monitors.json']);
    expect(stateOf(await loadConfig([{ name: 'only', data: { version: 1 } }], { cwd: dir, env: {} })).files).toEqual(['only']);
  });

  it('two configurations of one name are refused: their diagnostics could not be told apart', async () => {
    const dir = await writeTree({ 'a.json': '{"version": 1}' });
    const result = await loadConfig(['a.json', { name: 'a.json', data: { version: 1 } }], { cwd: dir, env: {} });
    expect(diagnosticsOf(result).map(brief)).toEqual([
      { file: 'a.json', line: 1, column: 1, message: 'a configuration of this name is given twice' },
    ]);
  });
});
