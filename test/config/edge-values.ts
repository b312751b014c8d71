/**
 * Values for every field a configuration sends to the service: mostly ordinary ones, sometimes one
 * from the edges the service is strict about (blank text, boundary numbers, host names and e-mail
 * addresses at their length limits, time zones written another way). Shared by the tests that
 * hold `validate` to the service's rules: whatever the loader accepts, the service must accept.
 */
import fc from 'fast-check';

/** Ordinary values three times in four, an edge value otherwise. */
function edgy<T>(ordinary: fc.Arbitrary<T>, edges: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: ordinary as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fc.constantFrom(...edges) });
}

/** Whitespace as JavaScript (and the service) trims it, and near misses that are not whitespace. */
export const WHITESPACE = [' ', '\t', '\n', '\u000b', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2003', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
export const NOT_WHITESPACE = ['\u200b', '\u180e', '\u0085', 'x'];

const BLANKS = ['', ' ', '   ', '\t', '\u00a0', '\u3000 ', ' \u2003'];

export const name = edgy(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), [...BLANKS, ' padded ', 'Prüfung ✓', '"quoted"', 'a'.repeat(300)]);

const long = (n: number) => 'a'.repeat(n);
export const MONITOR_FIELDS = {
  ip_address: edgy(fc.constantFrom('mx', 'mx:failover', 'mail.example.com', '192.0.2.7', '2001:db8::25'), [
    ...BLANKS, '192.0.2.999', '1.2.3', 'mx.example.', 'x..y', '.mx.example.com', '-mx.example.com', 'mx-.example.com',
    'mx_1.example.com', 'localhost', `${long(63)}.example.com`, `${long(64)}.example.com`, `${'a.'.repeat(126)}ab`,
    `${'a.'.repeat(127)}ab`, 'MX', 'mx:Failover', '::1', '[::1]', 'mail.example.com:25', 'mail example.com', 123,
  ]),
  test_account: edgy(fc.constantFrom('probe@example.com', 'a.b+c@mail.example.org'), [
    ...BLANKS, `${'p'.repeat(64)}@example.com`, `${'p'.repeat(65)}@example.com`, 'probe@example.123', 'probe@localhost',
    `probe@${long(63)}.com`, `probe@${long(64)}.com`, `probe@${'a.'.repeat(124)}com`, 'probe@example..com',
    '.probe@example.com', 'probe.@example.com', 'probe@-example.com', 'PROBE@EXAMPLE.COM', 'probe@example.com.',
    'a@b.c', 'a@b@example.com', 'prüfung@example.com',
  ]),
  timer: edgy(fc.constantFrom(3, 5, 10, 15, 20, 30), [0, 1, 2, 4, 31, 60, -5, 5.5, '5']),
  time_zone: edgy(fc.constantFrom('Europe/London', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'), [
    ...BLANKS, 'UTC', 'utc', 'GMT', 'Zulu', 'ZULU', 'us/eastern', 'US/Eastern', 'Etc/GMT+1', 'etc/gmt+1', 'Etc/GMT-14',
    'EST5EDT', '+01:00', 'Europe/london', 'europe/london', 'Europe/Berln', 'Europe/London ', 'America/Argentina/Buenos_Aires',
  ]),
  port: edgy(fc.constantFrom(25, 465, 587), [0, 1, 65535, 65536, -1, 25.5, '25']),
  ttl: edgy(fc.constantFrom(0, 30, 60, 180, 300, 600, 1800), [1, 29, 31, 3600, -30, '600']),
  use_tls: edgy(fc.constantFrom('on', 'off', 'auto'), ['ON', 'yes', '', true]),
  attachment: edgy(fc.constantFrom('docx', 'pdf', null), ['', 'zip', 'PDF']),
  message_format: edgy(fc.constantFrom('text/plain', 'text/html'), ['text/markdown', '', 'TEXT/PLAIN']),
  ipv6: edgy(fc.boolean(), ['true', 0]),
  custom_subject: edgy(fc.constantFrom('', '[probe]'), [...BLANKS, null, long(2000)]),
  custom_body: edgy(fc.constantFrom('', 'line 1\nline 2'), [...BLANKS, null]),
  meta: edgy(fc.constantFrom({}, { region: 'eu' }), [{ '': 'x' }, { ' ': 'x' }, { k: '' }, { k: ' ' }, { k: 1 }, { 'managed-by': 'x' }]),
};

export const ALERT_FIELDS = {
  subject_init: edgy(fc.constantFrom('down', 'mx is DOWN'), [...BLANKS, ' down ', '\u2003down']),
  subject_term: edgy(fc.constantFrom('up', 'mx is UP'), [...BLANKS, ' up']),
  timeout: edgy(fc.constantFrom(5, 15, 60), [0, 1, -1, 1.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, '5']),
  message_init: edgy(fc.constantFrom('', 'It is down.'), [...BLANKS, null]),
  message_term: edgy(fc.constantFrom('', 'It is up.'), [...BLANKS, null]),
  down_only: edgy(fc.boolean(), ['yes']),
  repeat: edgy(fc.boolean(), ['no']),
};

type Fields = Record<string, fc.Arbitrary<unknown>>;

/** Some of `fields` (each one present or not), as a record. */
export function someOf(fields: Fields, required: readonly string[] = []): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(fields, { requiredKeys: required as string[] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** JSON is YAML, and puts every value where a diagnostic can point at it. */
export function yamlOf(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
