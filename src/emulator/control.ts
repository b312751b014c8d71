/**
 * The control API under /_emulator/ (docs/emulator-reference.md): no auth, never recorded, never faulted.
 */
import type { EmulatorClock } from './clock.js';
import { badRequest, notFound } from './errors.js';
import { parseFaultConfig, type FaultInjector } from './faults.js';
import type { RequestLog } from './request-log.js';
import { Router } from './routes.js';
import { applySeed, isSeedName } from './seed.js';
import type { EmulatorStore, SeedBody, SeedName } from './store/index.js';
import { ROUND_TRIP_FAULTS, type RoundTripFault } from './simulation.js';
import { isObject, show } from './validate.js';

export interface ControlContext {
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  store: EmulatorStore;
  clock: EmulatorClock;
  faults: FaultInjector;
  log: RequestLog;
  defaultSeed: SeedName;
  /** The account a replica started from (startEmulator's `account`): what a reset without a seed name restores. */
  initialAccount: SeedBody | null;
}

function clockView(clock: EmulatorClock): { now: number; offset_seconds: number; iso: string } {
  const ms = clock.nowMs();
  return { now: Math.floor(ms / 1000), offset_seconds: Math.round(clock.offset / 1000), iso: new Date(ms).toISOString() };
}

function objectBody(body: unknown, what: string): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw badRequest(`${what}: body must be a JSON object`);
  return body;
}

export function buildControlRouter(): Router<ControlContext> {
  const r = new Router<ControlContext>();
  const ok = (body: unknown) => ({ status: 200, body });

  r.add('POST', '/_emulator/reset', (c) => {
    const b = objectBody(c.body, 'reset');
    const restore = b.seed === undefined && c.initialAccount !== null;
    const seed = b.seed ?? c.defaultSeed;
    if (!restore && !isSeedName(seed)) throw badRequest(`reset: seed ${show(seed)} is not one of default, empty`);
    c.store.clear();
    if (restore) c.store.seed(structuredClone(c.initialAccount));
    else applySeed(c.store, seed as SeedName);
    c.faults.clear();
    c.log.reset();
    return ok({ seed: restore ? 'clone' : seed, ...c.store.counts });
  });
  r.add('POST', '/_emulator/seed', (c) => ok(c.store.seed(c.body)));
  r.add('GET', '/_emulator/state', (c) => ok({ now: c.clock.nowSeconds(), ...c.store.snapshot() }));
  r.add('GET', '/_emulator/requests', (c) => ok({ requests: c.log.list() }));
  r.add('DELETE', '/_emulator/requests', (c) => ok({ cleared: c.log.clear() }));
  r.add('GET', '/_emulator/faults', (c) => ok({ faults: c.faults.config }));
  r.add('POST', '/_emulator/faults', (c) => {
    c.faults.set(parseFaultConfig(c.body));
    return ok({ faults: c.faults.config });
  });
  r.add('DELETE', '/_emulator/faults', (c) => {
    c.faults.clear();
    return ok({ faults: null });
  });
  r.add('GET', '/_emulator/clock', (c) => ok(clockView(c.clock)));
  r.add('POST', '/_emulator/clock', (c) => {
    const b = objectBody(c.body, 'clock');
    const extra = Object.keys(b).filter((k) => k !== 'advance_seconds' && k !== 'set');
    if (extra.length) throw badRequest(`clock: unknown key ${extra.join(', ')} (allowed: advance_seconds, set)`);
    const { advance_seconds: adv, set } = b;
    if (set !== undefined && (typeof set !== 'number' || !Number.isFinite(set) || set < 0)) {
      throw badRequest(`clock: set must be unix seconds (a number >= 0), got ${show(set)}`);
    }
    if (adv !== undefined && (typeof adv !== 'number' || !Number.isFinite(adv))) {
      throw badRequest(`clock: advance_seconds must be a number, got ${show(adv)}`);
    }
    // Minutes up to the old time are checked before the clock moves; the ones crossed by the move
    // are checked by the next request that needs them (the result is the same either way).
    c.store.sync();
    if (set !== undefined) c.clock.set(set);
    if (adv !== undefined) c.clock.advance(adv);
    if (set !== undefined || adv !== undefined) c.store.touch();
    return ok(clockView(c.clock));
  });
  addSimulationRoutes(r, ok);
  return r;
}

/** The routes that move the simulated service: alerts, outages, round trips, history, outbox, simulation, data. */
function addSimulationRoutes(r: Router<ControlContext>, ok: (body: unknown) => { status: number; body: unknown }): void {
  r.add('POST', '/_emulator/alert-active', (c) => {
    const b = objectBody(c.body, 'alert-active');
    if (typeof b.monitor !== 'string') throw badRequest(`alert-active: monitor must be a monitor id string, got ${show(b.monitor)}`);
    if (typeof b.active !== 'boolean') throw badRequest(`alert-active: active must be a boolean, got ${show(b.active)}`);
    c.store.setAlertActive(b.monitor, b.active);
    return ok({ monitor: b.monitor, active: b.active });
  });
  r.add('POST', '/_emulator/outage', (c) => {
    const b = objectBody(c.body, 'outage');
    const extra = Object.keys(b).filter((k) => k !== 'monitor' && k !== 'seconds');
    if (extra.length) throw badRequest(`outage: unknown key ${extra.join(', ')} (allowed: monitor, seconds)`);
    if (typeof b.monitor !== 'string' || b.monitor === '') {
      throw badRequest(`outage: monitor must be a monitor id string, got ${show(b.monitor)}`);
    }
    const seconds = b.seconds;
    if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds < 0) {
      throw badRequest(`outage: seconds must be a whole number of seconds >= 0 (0 ends the outage), got ${show(seconds)}`);
    }
    if (!c.store.hasMonitor(b.monitor)) throw notFound(`outage: monitor ${b.monitor} not found`);
    return ok(c.store.setOutage(b.monitor, seconds));
  });
  r.add('POST', '/_emulator/round-trip', (c) => {
    const b = objectBody(c.body, 'round-trip');
    const extra = Object.keys(b).filter((k) => k !== 'monitor' && k !== 'fault');
    if (extra.length) throw badRequest(`round-trip: unknown key ${extra.join(', ')} (allowed: monitor, fault)`);
    if (typeof b.monitor !== 'string' || b.monitor === '') throw badRequest(`round-trip: monitor must be a monitor id string, got ${show(b.monitor)}`);
    const allowed = ['none', ...ROUND_TRIP_FAULTS];
    if (typeof b.fault !== 'string' || !allowed.includes(b.fault)) throw badRequest(`round-trip: fault must be one of ${allowed.join(', ')}, got ${show(b.fault)}`);
    if (!c.store.hasMonitor(b.monitor)) throw notFound(`round-trip: monitor ${b.monitor} not found`);
    return ok(c.store.setRoundTrip(b.monitor, b.fault === 'none' ? null : (b.fault as RoundTripFault)));
  });
  r.add('POST', '/_emulator/history', (c) => ok(c.store.seedHistory(c.body)));
  r.add('GET', '/_emulator/outbox', (c) => {
    const raw = c.query.get('since');
    let since = 0;
    if (raw !== null && raw !== '') {
      if (!/^-?\d{1,15}$/.test(raw.trim())) throw badRequest(`outbox: since must be unix seconds, got ${raw}`);
      since = Number(raw.trim());
    }
    return ok({ messages: c.store.outbox(since) });
  });
  r.add('DELETE', '/_emulator/outbox', (c) => ok({ cleared: c.store.clearOutbox() }));
  r.add('GET', '/_emulator/simulation', (c) => ok(c.store.simulation()));
  r.add('POST', '/_emulator/simulation', (c) => ok(c.store.setSimulation(c.body)));
  r.add('POST', '/_emulator/data', (c) => {
    const b = objectBody(c.body, 'data');
    if (typeof b.monitor !== 'string') throw badRequest(`data: monitor must be a monitor id string, got ${show(b.monitor)}`);
    if (b.items === undefined && b.analysis === undefined) throw badRequest('data: give items and/or analysis');
    return ok({ monitor: b.monitor, ...c.store.addData(b.monitor, b.items, b.analysis) });
  });
}
