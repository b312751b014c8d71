/**
 * The default seed: what a new user of the emulator sees, chosen to exercise the wire quirks
 * the API document shows (upper-case `EMAIL`, `timer` as a string, `hostname` instead of
 * `ip_address`, display-form monitor types) and an SMTP monitor that was made in the web UI and
 * so carries no ownership marker in `meta`.
 */
import type { EmulatorStore, SeedBody, SeedName } from './store/index.js';

export const DEFAULT_SEED: SeedBody = {
  destinations: [
    { label: 'ops-mail', destination: 'ops@example.com', type: 'email', subscribed: true },
    { label: 'oncall-sms', destination: '+15555550100', type: 'sms', subscribed: true },
    { label: 'duty-voice', destination: '+15555550101', type: 'voice', subscribed: true },
    { label: 'legacy-mail', destination: 'legacy@example.com', type: 'EMAIL', subscribed: false },
  ],
  monitors: [
    {
      label: 'www-http',
      type: 'HTTP',
      description: 'Public web site',
      ip_address: 'www.example.com',
      port: 443,
      timer: '5',
      time_zone: 'UTC',
      data_label: 'milliseconds',
      meta: {},
      alerts: [],
      groups: [],
    },
    {
      label: 'gw-ping',
      type: 'Ping',
      description: null,
      hostname: '192.0.2.1',
      timer: 5,
      time_zone: 'UTC',
      data_label: 'milliseconds',
      meta: {},
      alerts: [],
      groups: [],
    },
    {
      label: 'dns-mx',
      type: 'DNS Query',
      description: 'MX record of example.org',
      ip_address: 'example.org',
      timer: 10,
      time_zone: 'UTC',
      data_label: 'milliseconds',
      meta: {},
      alerts: [],
      groups: [],
    },
    {
      label: 'legacy-mx',
      type: 'smtp',
      description: null,
      ip_address: 'mx',
      port: 25,
      ipv6: false,
      use_tls: 'auto',
      use_client_cert: false,
      test_account: 'probe@example.org',
      attachment: '',
      custom_subject: '',
      custom_body: '',
      message_format: 'text/plain',
      timer: 10,
      ttl: 0,
      timeout: 30,
      time_zone: 'Europe/London',
      data_label: 'seconds',
      meta: {},
      alerts: [],
      groups: [],
    },
  ],
};

export function isSeedName(v: unknown): v is SeedName {
  return v === 'default' || v === 'empty';
}

export function applySeed(store: EmulatorStore, seed: SeedName): void {
  if (seed === 'default') store.seed(structuredClone(DEFAULT_SEED));
}
