/**
 * Shared by the operator-command tests: the environment of a user pointed at a test emulator, and a
 * small account of monitors, alerts and destinations seeded through the emulator's control API
 * (captureIo, the in-memory output, is test/helpers/io.ts).
 */
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import type { Env } from '../../src/api/connect.js';
import type { TestEmulator } from '../helpers/emulator.js';

export function v1Env(url: string): Env {
  return { MONSYNC_URL: url, MONSYNC_USERNAME: DEFAULT_CREDENTIALS.v1.user, MONSYNC_PASSWORD: DEFAULT_CREDENTIALS.v1.password };
}

export function v2Env(url: string): Env {
  return { MONSYNC_URL: url, MONSYNC_CLIENT_ID: DEFAULT_CREDENTIALS.v2.clientId, MONSYNC_CLIENT_SECRET: DEFAULT_CREDENTIALS.v2.clientSecret };
}

export interface OpsAccount {
  destinations: { opsMail: string; oncallSms: string; legacyMail: string };
  monitors: { eu: string; us: string; quiet: string };
  alerts: { euDown: string; euSlow: string; usDown: string };
}

const smtp = (label: string, tz = 'UTC') => ({
  label,
  type: 'smtp',
  ip_address: 'mx',
  port: 25,
  test_account: `probe+${label}@example.org`,
  timer: 5,
  ttl: 0,
  timeout: 30,
  time_zone: tz,
  data_label: 'milliseconds',
  meta: {},
  alerts: [],
  groups: [],
});

const alert = (monitor: string, subject: string, destinations: string[], extra: Record<string, unknown> = {}) => ({
  type: 'up-down',
  monitor,
  subject_init: subject,
  subject_term: subject.replace(/DOWN|SLOW/, 'UP'),
  message_init: `${subject}: the test message did not come back`,
  message_term: 'Recovered',
  timeout: 15,
  alert_destinations: destinations,
  down_only: false,
  repeat: false,
  ...extra,
});

/**
 * Two SMTP monitors with alerts (mx-eu-1 has two, mx-us-1 one), one without alerts, and three
 * destinations of which legacy-mail is unsubscribed. Starts from an empty emulator.
 */
export async function seedAccount(emu: TestEmulator, opts: { at?: number } = {}): Promise<OpsAccount> {
  await emu.control.reset('empty');
  // A reset puts the clock back to real time: a test that lives at fixed dates makes the account at
  // one of its own (`at`, unix seconds), or its monitors are made on the day the suite runs and have
  // run no test at dates before it.
  if (opts.at !== undefined) await emu.control.setClock(opts.at);
  const d = await emu.control.seed({
    destinations: [
      { label: 'ops-mail', destination: 'ops@example.com', type: 'email', subscribed: true },
      { label: 'oncall-sms', destination: '+15555550100', type: 'sms', subscribed: true },
      { label: 'legacy-mail', destination: 'legacy@example.com', type: 'EMAIL', subscribed: false },
    ],
  });
  const [opsMail, oncallSms, legacyMail] = d.destinations as [string, string, string];
  const m = await emu.control.seed({ monitors: [smtp('mx-eu-1', 'Europe/Berlin'), smtp('mx-us-1'), smtp('mx-quiet')] });
  const [eu, us, quiet] = m.monitors as [string, string, string];
  const a = await emu.control.seed({
    alerts: [
      alert(eu, 'mx-eu-1 is DOWN', [opsMail, oncallSms, legacyMail], { repeat: true }),
      alert(eu, 'mx-eu-1 is SLOW', [opsMail], { timeout: 30, down_only: true }),
      alert(us, 'mx-us-1 is DOWN', [oncallSms]),
    ],
  });
  const [euDown, euSlow, usDown] = a.alerts as [string, string, string];
  return {
    destinations: { opsMail, oncallSms, legacyMail },
    monitors: { eu, us, quiet },
    alerts: { euDown, euSlow, usDown },
  };
}
