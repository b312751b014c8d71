/**
 * Two choices the emulator makes where the API document is silent (docs/emulator-reference.md, "the emulator's
 * choices"): written down there, held here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

describe('where the API document is silent, the emulator', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'default' });
  });
  afterAll(() => emu.close());

  it('empties a group on a PUT with replace true and no monitors', async () => {
    const g = (await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'full', monitors: ['10001', '10002'] } })).json.group;
    const kept = await apiCall(emu, 'PUT', `/v1/Config/Group/${g.id}/`, { body: { name: 'full' } });
    expect(kept.json.group.monitors).toHaveLength(2);
    const emptied = await apiCall(emu, 'PUT', `/v1/Config/Group/${g.id}/`, { body: { name: 'full', replace: true } });
    expect(emptied.status).toBe(200);
    expect(emptied.json.group.monitors).toEqual([]);
  });

  it('counts an empty filter value as a filter, matching every label', async () => {
    expect((await apiCall(emu, 'GET', '/v1/Status/Filter/')).status).toBe(400);
    const all = await apiCall(emu, 'GET', '/v1/Status/Filter/?prefix=');
    expect(all.status).toBe(200);
    const monitors = (await apiCall(emu, 'GET', '/v1/Config/Monitor/')).json.monitor_list;
    expect(all.json.monitor_list).toHaveLength(monitors.length);
  });
});
