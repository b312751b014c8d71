/**
 * MONSYNC_CONFIG_FULL_PATH=1 (or LoadOptions.fullPath) sends every file through the yaml library,
 * so a suspected fast-path problem can be ruled in or out without touching the code.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FULL_PATH_VARIABLE } from '../../src/config/load.js';
import * as fast from '../../src/config/fast/index.js';
import { loadFiles, monitorYaml, stateOf } from './helpers.js';

vi.mock('../../src/config/fast/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/config/fast/index.js')>();
  return { ...real, loadFast: vi.fn(real.loadFast) };
});

const FILES = { 'a.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-a')}`, 'b.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-b')}` };
const saved = process.env[FULL_PATH_VARIABLE];

afterEach(() => {
  vi.mocked(fast.loadFast).mockClear();
  if (saved === undefined) delete process.env[FULL_PATH_VARIABLE];
  else process.env[FULL_PATH_VARIABLE] = saved;
});

describe('the switch that forces the full path', () => {
  it('is named MONSYNC_CONFIG_FULL_PATH', () => {
    expect(FULL_PATH_VARIABLE).toBe('MONSYNC_CONFIG_FULL_PATH');
  });

  it('leaves the fast path on when the variable is unset, empty or 0', async () => {
    for (const value of [undefined, '', '0']) {
      if (value === undefined) delete process.env[FULL_PATH_VARIABLE];
      else process.env[FULL_PATH_VARIABLE] = value;
      vi.mocked(fast.loadFast).mockClear();
      const state = stateOf(await loadFiles(FILES));
      expect(state.monitors.map((m) => m.label)).toEqual(['mx-a', 'mx-b']);
      expect(vi.mocked(fast.loadFast).mock.calls.length, String(value)).toBe(2);
      // The files are in the fast path's subset: it read both.
      expect(vi.mocked(fast.loadFast).mock.results.every((r) => r.value !== undefined)).toBe(true);
    }
  });

  it('with MONSYNC_CONFIG_FULL_PATH=1 loads every file without the fast path, into the same state', async () => {
    const before = stateOf(await loadFiles(FILES));
    vi.mocked(fast.loadFast).mockClear();
    process.env[FULL_PATH_VARIABLE] = '1';
    const after = stateOf(await loadFiles(FILES));
    expect(vi.mocked(fast.loadFast)).not.toHaveBeenCalled();
    expect(after).toEqual(before);
  });

  it('is also an option of loadConfig, which wins over the variable', async () => {
    const { loadConfig } = await import('../../src/config/index.js');
    process.env[FULL_PATH_VARIABLE] = '1';
    const { dir } = await loadFiles(FILES);
    vi.mocked(fast.loadFast).mockClear();
    stateOf(await loadConfig(['a.yaml'], { cwd: dir, env: {}, fullPath: false }));
    expect(vi.mocked(fast.loadFast)).toHaveBeenCalledTimes(1);
    delete process.env[FULL_PATH_VARIABLE];
    vi.mocked(fast.loadFast).mockClear();
    stateOf(await loadConfig(['a.yaml'], { cwd: dir, env: {}, fullPath: true }));
    expect(vi.mocked(fast.loadFast)).not.toHaveBeenCalled();
  });
});
