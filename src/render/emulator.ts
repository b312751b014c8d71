/**
 * What `monsync emulator` tells a person on stderr once it listens (stdout carries only `listening
 * on URL`): where it serves, the credentials it accepts, how to point monsync at it. Pure.
 */

export interface EmulatorBanner {
  url: string;
  /** The account it is a replica of (`--clone-from`). */
  source?: string;
  /** `--state`: where it keeps its account. */
  state?: string;
  /** `--tls`: the CA certificate's file. */
  caFile?: string;
  v1: { user: string; password: string };
  v2: { clientId: string; clientSecret: string };
}

export function renderEmulatorBanner(b: EmulatorBanner): string {
  return [
    `monsync emulator: serving the monitoring API v1 and v2 on ${b.url}` +
      (b.source !== undefined ? `, a replica of ${b.source}` : '') +
      (b.state ? ` (state in ${b.state})` : ' (state in memory only)'),
    ...(b.source !== undefined && b.state ? [`  the replica is kept in ${b.state}: \`monsync emulator --state ${b.state}\` serves it again without reading the account`] : []),
    `  v1 HTTP Basic: ${b.v1.user} / ${b.v1.password}`,
    `  v2 OAuth client: ${b.v2.clientId} / ${b.v2.clientSecret}`,
    `  API documentation: ${b.url}/v2/docs`,
    '  point monsync at it with:',
    `    export MONSYNC_URL=${b.url}`,
    ...(b.caFile !== undefined ? [`    export NODE_EXTRA_CA_CERTS=${b.caFile}   # HTTPS with a CA made at start: its certificate is in this file`] : []),
    `    export MONSYNC_USERNAME=${b.v1.user} MONSYNC_PASSWORD=${b.v1.password}`,
    `    export MONSYNC_CLIENT_ID=${b.v2.clientId} MONSYNC_CLIENT_SECRET=${b.v2.clientSecret}`,
    `  control API: ${b.url}/_emulator/ (reset, seed, state, requests, faults, clock, outage, history, outbox, simulation). Ctrl-C stops.`,
    '',
  ].join('\n');
}
