/**
 * Values for every field a configuration sends to the service: mostly ordinary ones, sometimes one
 * from the edges the service is strict about (blank text, boundary numbers, host names and e-mail
 * addresses at their length limits, time zones written another way). Shared by the tests that
 * hold `validate` to the service's rules: whatever the loader accepts, the service must accept.
 */
import fc from 'fast-check';

/**
 * How often values come from each pool: `ordinary` ones, edge values the service takes (`fine`),
 * and edge values it refuses (`bad`), as weights.
 */
export interface Mix {
  ordinary: number;
  fine: number;
  bad: number;
}

/** Whitespace as JavaScript (and the service) trims it, and near misses that are not whitespace. */
export const WHITESPACE = [' ', '\t', '\n', '\u000b', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2003', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
export const NOT_WHITESPACE = ['\u200b', '\u180e', '\u0085', 'x'];

const BLANKS = ['', ' ', '   ', '\t', '\u00a0', '\u3000 ', ' \u2003'];
const long = (n: number) => 'a'.repeat(n);

/** The arbitraries of names and fields, drawing from the three pools in the proportions of `mix`. */
export function edgeValues(mix: Mix = { ordinary: 6, fine: 2, bad: 1 }) {
  const edgy = (ordinary: fc.Arbitrary<unknown>, fine: readonly unknown[], bad: readonly unknown[]): fc.Arbitrary<unknown> =>
    fc.noBias(fc.oneof(
      { weight: mix.ordinary, arbitrary: ordinary },
      { weight: fine.length > 0 ? mix.fine : 0, arbitrary: fc.constantFrom(...(fine.length > 0 ? fine : [undefined])) },
      { weight: mix.bad, arbitrary: fc.constantFrom(...bad) },
    // The weights as given: fast-check's bias towards small values would pick the pools evenly.
    ));
  // Surrounding whitespace of any kind (zero-width too) is refused by validate (look-alike labels): bad, not fine.
  const name = edgy(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), ['in between', 'Prüfung ✓', '"quoted"', 'a\u200bb', long(300)], [...BLANKS, ' padded ', '\u200b']);
  const MONITOR_FIELDS = {
    ip_address: edgy(
      fc.constantFrom('mx', 'mx:failover', 'mail.example.com', '192.0.2.7', '2001:db8::25'),
      ['localhost', 'mx.example.', `${long(63)}.example.com`, `${'a.'.repeat(126)}ab`, '::1', '0.0.0.0', 'xn--bcher-kva.example'],
      [
        ...BLANKS, '192.0.2.999', '1.2.3', 'x..y', '.mx.example.com', '-mx.example.com', 'mx-.example.com', 'mx_1.example.com',
        `${long(64)}.example.com`, `${'a.'.repeat(127)}ab`, 'MX', 'mx:Failover', '[::1]', 'mail.example.com:25', 'mail example.com', 123,
      ],
    ),
    test_account: edgy(
      fc.constantFrom('probe@example.com', 'a.b+c@mail.example.org'),
      [`${'p'.repeat(64)}@example.com`, `probe@${long(63)}.com`, `probe@${'a.'.repeat(124)}com`, 'PROBE@EXAMPLE.COM', 'a@b.c', "!#$%&'*+/=?^_`{|}~-@example.com"],
      [
        ...BLANKS, `${'p'.repeat(65)}@example.com`, 'probe@example.123', 'probe@localhost', `probe@${long(64)}.com`,
        'probe@example..com', '.probe@example.com', 'probe.@example.com', 'probe@-example.com', 'probe@example.com.',
        'a@b@example.com', 'prüfung@example.com',
      ],
    ),
    timer: edgy(fc.constantFrom(3, 5, 10, 15, 20, 30), [], [0, 1, 2, 4, 31, 60, -5, 5.5, '5']),
    time_zone: edgy(
      fc.constantFrom('Europe/London', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'),
      ['UTC', 'GMT', 'Zulu', 'US/Eastern', 'Etc/GMT+1', 'Etc/GMT-14', 'EST5EDT', 'America/Argentina/Buenos_Aires'],
      [...BLANKS, 'utc', 'ZULU', 'us/eastern', 'etc/gmt+1', '+01:00', 'Europe/london', 'europe/london', 'Europe/Berln', 'Europe/London '],
    ),
    port: edgy(fc.constantFrom(25, 465, 587), [1, 65535], [0, 65536, -1, 25.5, '25']),
    ttl: edgy(fc.constantFrom(0, 30, 60, 180, 300, 600, 1800), [], [1, 29, 31, 3600, -30, '600']),
    use_tls: edgy(fc.constantFrom('on', 'off', 'auto'), [], ['ON', 'yes', '', true]),
    attachment: edgy(fc.constantFrom('docx', 'pdf', null), [], ['', 'zip', 'PDF']),
    message_format: edgy(fc.constantFrom('text/plain', 'text/html'), [], ['text/markdown', '', 'TEXT/PLAIN']),
    ipv6: edgy(fc.boolean(), [], ['true', 0]),
    custom_subject: edgy(fc.constantFrom('', '[probe]'), [...BLANKS, long(2000)], [null]),
    custom_body: edgy(fc.constantFrom('', 'line 1\nline 2'), BLANKS, [null]),
    meta: edgy(fc.constantFrom({}, { region: 'eu' }), [{ ' ': 'x' }, { k: '' }, { k: ' ' }], [{ '': 'x' }, { k: 1 }, { 'managed-by': 'x' }]),
  };
  const ALERT_FIELDS = {
    subject_init: edgy(fc.constantFrom('down', 'mx is DOWN'), [' down ', '\u2003down', '\u200b'], BLANKS),
    subject_term: edgy(fc.constantFrom('up', 'mx is UP'), [' up', '\u180e'], BLANKS),
    timeout: edgy(fc.constantFrom(5, 15, 60), [1, Number.MAX_SAFE_INTEGER], [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, '5']),
    message_init: edgy(fc.constantFrom('', 'It is down.'), BLANKS, [null]),
    message_term: edgy(fc.constantFrom('', 'It is up.'), BLANKS, [null]),
    down_only: edgy(fc.boolean(), [], ['yes']),
    repeat: edgy(fc.boolean(), [], ['no']),
  };
  return { name, MONITOR_FIELDS, ALERT_FIELDS };
}

type Fields = Record<string, fc.Arbitrary<unknown>>;

/** Some of `fields` (each one present or not), as a record. */
export function someOf(fields: Fields, required: readonly string[] = []): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(fields, { requiredKeys: required as string[] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** JSON is YAML, and puts every value where a diagnostic can point at it. */
export function yamlOf(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
