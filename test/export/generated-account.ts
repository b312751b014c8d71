/**
 * A large generated account for export tests: every SMTP field kind, other-type monitors with
 * alerts, foreign monitors, groups, alerts, meta, and text that YAML or a terminal treats specially.
 * Deterministic (a seeded pseudo-random sequence): the same account on every run.
 */
import type { LiveState } from '../../src/model/live.js';
import { alert, destination, group, live, monitor } from './live-fixture.js';

/** Text a YAML printer or a terminal treats specially, plain text between. */
const TEXTS = [
  'plain text', 'yes', 'No', 'on', 'OFF', 'y', '~', 'null', 'True', '007', '1e3', '0x1F', '.inf', '+1', '1_000', '2026-01-01', '12:30',
  '- dash', ': colon', 'a: b', 'a #b', '#hash', '[x]', '{y: 1}', '*star', '&amp', '!tag', '%pct', '@at', '`tick', "it's", 'say "hi"',
  ' lead', 'trail ', 'line1\nline2', 'tab\there', 'ends\n', 'multi\n\n  indented\n', '<<', '---', '...', '?', '|', '>',
  'Zürich ✓ 東京', 'x'.repeat(90), `${'word '.repeat(20)}end`, '\u202e\u009b31m\u2028\u001b[2K\u2066', 'zero\u200bwidth', '\ufeffbom',
  'bell\u0007', 'cr\rlf', 'nbsp\u00a0here', '',
];

/** A deterministic pseudo-random sequence (mulberry32): the same account on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generated(n: number): LiveState {
  const r = random(24);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const text = () => (r() < 0.5 ? pick(TEXTS) : `${pick(TEXTS)} ${pick(TEXTS)}`);
  const destinations = Array.from({ length: 8 }, (_, i) => destination(`d${i}`, i === 7 ? `dest ${pick(TEXTS)}` : `ops-${i}`, i % 3 ? 'email' : 'sms'));
  const l = live({ destinations });
  for (let i = 0; i < n; i++) {
    const other = i % 25 === 24;
    const meta: Record<string, string> = { 'managed-by': i % 10 === 0 ? 'someone-else' : 'monsync' };
    for (let k = 0; k < Math.floor(r() * 5); k++) meta[k === 0 ? pick(TEXTS) || 'k' : `key${k}`] = text();
    l.monitors.push(
      monitor({
        id: `m${i}`,
        label: r() < 0.2 ? `mx-${i} ${pick(TEXTS)}` : `mx-${i}`,
        type: other ? 'http' : 'smtp',
        ip_address: pick(['mx', 'mx:failover', `mx${i}.example.com`, '192.0.2.1', '2001:db8::1']),
        test_account: other ? null : pick(['probe@example.com', `p${i}@example.org`]),
        timer: pick([3, 5, 5, 5, 10, 15, 20, 30]),
        time_zone: pick(['Europe/London', 'Europe/London', 'Asia/Tokyo', 'America/New_York']),
        use_tls: pick(['auto', 'auto', 'on', 'off']),
        attachment: pick([null, null, 'pdf', 'docx']),
        custom_subject: r() < 0.3 ? text() : '',
        custom_body: r() < 0.3 ? text() : '',
        ttl: pick([0, 0, 30, 60, 180, 300, 600, 1800]),
        ipv6: r() < 0.2,
        message_format: r() < 0.2 ? 'text/html' : 'text/plain',
        port: pick([25, 25, 587, 465, 2525]),
        meta,
        groups: other ? null : [],
      }),
    );
    for (let k = 0; k < Math.floor(r() * 4); k++) {
      const subject = `${pick(['down', 'DOWN', 'slow'])} ${text()} ${i}.${k}`;
      l.alerts.push(
        alert({
          id: `a${i}.${k}`,
          monitor: `m${i}`,
          subject_init: subject,
          subject_term: r() < 0.5 ? `${subject} (resolved)` : `up ${text()} ${i}.${k}`,
          message_init: r() < 0.3 ? text() : '',
          message_term: r() < 0.3 ? text() : '',
          down_only: r() < 0.2,
          repeat: r() < 0.3,
          timeout: pick([15, 15, 5, 30, null]),
          alert_destinations: destinations.filter(() => r() < 0.3).map((d) => d.id),
        }),
      );
    }
  }
  for (let g = 0; g < 30; g++) {
    const members = l.monitors.filter(() => r() < 0.05).map((m): [string, string | null] => [m.id, m.label]);
    l.groups.push(group(`g${g}`, g % 7 === 0 ? `group ${pick(TEXTS)} ${g}` : `group-${g}`, members));
  }
  for (const m of l.monitors) if (m.groups) m.groups = l.groups.filter((g) => g.members.some((x) => x.id === m.id)).map((g) => g.id);
  return l;
}
