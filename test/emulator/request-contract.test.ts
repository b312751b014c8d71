/**
 * The request schemas of schemas/openapi.json say what the emulator takes: for bodies made by
 * changing one field of a valid one (each value of a small set of odd ones, and an unknown field),
 * the emulator refuses a body exactly when the schema does (refusals that depend on the account,
 * such as an unknown id, aside: helpers/contract.ts lists them). The contract checker itself is
 * tested here on exchanges it must refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/emulator/index.js';
import { contractProblems, exchangeProblems } from '../helpers/contract.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const ODD: unknown[] = [null, '', '   ', 'x', 0, -1, 1, 5, 1.5, 70000, true, [], ['x'], {}, { a: '1' }, { '': 'x' }, { a: 1 }];

/** Bodies that differ from `base` in one field, or by one unknown field. */
function variants(base: Record<string, unknown>, fields: readonly string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [base, { ...base, colour: 'red' }];
  for (const f of fields) {
    const { [f]: _drop, ...without } = base;
    out.push(without);
    for (const v of ODD) out.push({ ...base, [f]: v });
  }
  return out;
}

describe('the request schemas of /v2/docs', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'default' });
  });
  afterAll(() => emu.close());

  it('refuse exactly the bodies the emulator refuses, for monitors, alerts, groups and pauses', async () => {
    const monitor = { type: 'smtp', label: 'contract', timer: 5, time_zone: 'UTC', ip_address: 'mx.example.com', test_account: 'p@example.com' };
    const monitorFields = [...Object.keys(monitor), 'use_tls', 'attachment', 'custom_subject', 'custom_body', 'ttl', 'ipv6', 'message_format', 'port', 'meta'];
    const created = await apiCall(emu, 'POST', '/v1/Config/Monitor/', { body: monitor });
    expect(created.status).toBe(200);
    const id = created.json.monitor.id as string;
    const ping = (await apiCall(emu, 'GET', '/v1/Config/Monitor/')).json.monitor_list.find((m: { type: string }) => m.type !== 'smtp').id as string;
    const dest = (await apiCall(emu, 'GET', '/v1/Config/AlertDestination/')).json.alertdestination_list[0].id as string;

    for (const body of variants(monitor, monitorFields)) await apiCall(emu, 'POST', '/v1/Config/Monitor/', { body });
    for (const body of variants({ timer: 10 }, monitorFields)) await apiCall(emu, 'PUT', `/v1/Config/Monitor/${id}/`, { body });

    const alert = { type: 'up-down', monitor: id, subject_init: 'down', subject_term: 'up', timeout: 10, alert_destinations: [dest] };
    const alertFields = [...Object.keys(alert), 'message_init', 'message_term', 'down_only', 'repeat'];
    for (const body of variants(alert, alertFields)) await apiCall(emu, 'POST', '/v1/Config/Alert/', { body });
    // On a monitor of another type, timeout may be left out.
    for (const body of variants({ ...alert, monitor: ping }, ['timeout'])) await apiCall(emu, 'POST', '/v1/Config/Alert/', { body });

    for (const body of variants({ name: 'contract-group', monitors: [id] }, ['name', 'monitors'])) {
      await apiCall(emu, 'POST', '/v1/Config/Group/', { body });
    }
    const group = (await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'contract-g' } })).json.group.id as string;
    for (const body of variants({ name: 'contract-g', monitors: [id], replace: true }, ['name', 'monitors', 'replace'])) {
      await apiCall(emu, 'PUT', `/v1/Config/Group/${group}/`, { body });
    }
    for (const body of variants({ seconds: 60 }, ['seconds'])) await apiCall(emu, 'POST', '/v1/Pause/Alert/', { body });

    const writes = emu.exchanges.filter((x) => x.method !== 'GET');
    expect(writes.filter((x) => x.status === 200).length).toBeGreaterThan(50);
    expect(writes.filter((x) => x.status === 400).length).toBeGreaterThan(100);
    expect(contractProblems(emu.exchanges)).toEqual([]);
  });

  it('are refused as a whole when the body is not JSON: 415, as documented', async () => {
    const r = await apiCall(emu, 'POST', '/v1/Config/Group/', { body: 'name=g', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
    expect(exchangeProblems(emu.exchanges.at(-1)!)).toEqual([]);
  });
});

describe('the contract check', () => {
  const exchange = (x: Partial<Exchange>): Exchange => ({
    seq: 1,
    method: 'GET',
    path: '/v1/Config/Alert/7/',
    query: {},
    body: undefined,
    status: 200,
    fault: null,
    contentType: null,
    answer: undefined,
    ...x,
  });

  it('finds an answer off its schema, an undocumented status, a body taken that the schema refuses and one refused that it takes', () => {
    const alert = { id: '7', type: 'up-down', monitor: '1', timeout: 'ten' };
    expect(exchangeProblems(exchange({ answer: { path: '/v1/Config/Alert/7/', error: null, alert } })).join()).toMatch(/timeout/);
    expect(exchangeProblems(exchange({ status: 418, answer: {} })).join()).toMatch(/status 418 is not documented/);
    const post = { method: 'POST', path: '/v1/Config/Group/', contentType: 'application/json' };
    expect(exchangeProblems(exchange({ ...post, body: { name: 'g', colour: 'red' }, answer: { path: '/v1/Config/Group/', error: null, group: { id: '3', name: 'g', monitors: [] } } })).join()).toMatch(/took/);
    expect(exchangeProblems(exchange({ ...post, status: 400, body: { name: 'g' }, answer: { path: '/v1/Config/Group/', error: 'no' } })).join()).toMatch(/refused/);
  });

  it('leaves out injected faults and paths outside the document', () => {
    expect(exchangeProblems(exchange({ status: 503, fault: 'error', answer: 'x' }))).toEqual([]);
    expect(exchangeProblems(exchange({ path: '/v1/Nowhere/', status: 404, answer: 'x' }))).toEqual([]);
  });
});
