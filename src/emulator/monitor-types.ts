/**
 * The monitor types the service reports (API 1 and 2.6), however a monitor stores its `type`
 * (`smtp`, `HTTP`, `DNS Query`, `dns-query`...): one normal form, and the display form of the v1
 * status endpoints.
 */
const DISPLAY = {
  smtp: 'SMTP',
  http: 'HTTP',
  ping: 'Ping',
  'dns query': 'DNS Query',
  'tcp port': 'TCP Port',
  'ssh port': 'SSH Port',
} as const;

export type MonitorKind = keyof typeof DISPLAY;

/** The type's normal form, or undefined for a type the service does not list. */
export function monitorKind(type: string): MonitorKind | undefined {
  const key = type.toLowerCase().replace(/[-_\s]+/g, ' ').trim();
  return Object.hasOwn(DISPLAY, key) ? (key as MonitorKind) : undefined;
}

/** `smtp` -> `SMTP`, `dns-query` -> `DNS Query`; unknown types are shown as stored. */
export function displayType(type: string): string {
  const kind = monitorKind(type);
  return kind === undefined ? type : DISPLAY[kind];
}
