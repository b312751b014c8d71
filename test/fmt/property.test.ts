/**
 * fmt over generated configurations written every which way (keys shuffled, any indentation,
 * flow or block, any quoting, comments above and beside items, blank lines, anchors with merge
 * keys and aliases): it always formats, formatting twice changes nothing, every comment is kept,
 * and the loader reads exactly the same desired state before and after.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Document, isMap, isPair, isScalar, Scalar, visit, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { commentsOf } from '../../src/config/format/format.js';
import { ALLOWED_TIMERS, ALLOWED_TTLS } from '../../src/model/live.js';
import { format, loaded } from './helpers.js';

type Obj = Record<string, unknown>;

/** Text YAML treats specially somewhere: 1.1 booleans and numbers, indicators, `: `, ` #`, quotes. */
const TRICKY = ['on', 'off', 'yes', 'No', 'y', '007', '1e3', '0x1F', '1_000', '1:20', '2024-01-01', 'null', '~', 'true', '-', '- a', 'a: b', 'a #b', '#x', '[x]', '{x}', '*x', '&x', '!x', '|', '>', '%x', '@x', '`x', "it's", 'say "hi"', ' lead', 'trail ', '', '<<', '=', '?', 'a\tb', 'x\ny'];
const text = (min = 0) =>
  fc.oneof(
    fc.constantFrom(...TRICKY.filter((t) => t.length >= min)),
    fc.string({ unit: 'grapheme', minLength: min, maxLength: 12 }).filter((s) => !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(s)),
  );
/** `${` would be read as a variable; the format's escape is `$${`. */
const safe = (s: string) => s.replaceAll('${', '$${');
const name = text(1).filter((s) => /\S/.test(s)).map(safe);
/** Labels, group names and subject_init: validate refuses whitespace at either end of an identity (issue 23). */
const identity = name.filter((s) => !/^[\s\u200b-\u200d\u2060]|[\s\u200b-\u200d\u2060]$/.test(s));
const email = fc.stringMatching(/^[a-z][a-z0-9]{0,6}@[a-z]{1,6}\.(com|org)$/);
const meta = fc.dictionary(
  text(1).filter((k) => !['managed-by', '__proto__', 'constructor', '<<'].includes(k)).map(safe),
  text().map(safe),
  { maxKeys: 3 },
);

const monitorFields = {
  ip_address: fc.constantFrom('mx', 'mx:failover', '2001:db8::25', '192.0.2.7', 'mx.example.com', 'on', 'y', 'null.example'),
  test_account: email,
  timer: fc.constantFrom(...ALLOWED_TIMERS),
  time_zone: fc.constantFrom('Europe/London', 'UTC', 'Asia/Tokyo'),
  use_tls: fc.constantFrom('off', 'on', 'auto'),
  attachment: fc.constantFrom('docx', 'pdf', null),
  custom_subject: text().map(safe),
  custom_body: text().map(safe),
  ttl: fc.constantFrom(...ALLOWED_TTLS),
  ipv6: fc.boolean(),
  port: fc.integer({ min: 1, max: 65535 }),
  meta,
};
const alertFields = {
  timeout: fc.integer({ min: 0, max: 1440 }),
  alert_destinations: fc.uniqueArray(fc.constantFrom('ops-mail', 'oncall-sms'), { maxLength: 2 }),
  message_init: text().map(safe),
  down_only: fc.boolean(),
  repeat: fc.boolean(),
};
const REQUIRED = ['ip_address', 'test_account', 'timer', 'time_zone'] as const;

const alertsArb = fc.uniqueArray(
  fc.record({ subject_init: identity, subject_term: name, rest: fc.record(alertFields, { requiredKeys: ['timeout'] }) }),
  { selector: (a) => a.subject_init, maxLength: 2 },
);

const configArb = fc.record({
  settings: fc.option(fc.record({ owner: name, ignore: fc.constant(['legacy-*']), prune: fc.boolean() }, { requiredKeys: [] }), { nil: undefined }),
  /** Shared monitor fields, written once under an `x-` key and merged into some monitors. */
  shared: fc.record(monitorFields, { requiredKeys: [...REQUIRED] }),
  monitors: fc.uniqueArray(
    fc.record({
      label: identity,
      merge: fc.boolean(),
      own: fc.record(monitorFields, { requiredKeys: [...REQUIRED] }),
      keep: fc.subarray(Object.keys(monitorFields)),
      alerts: alertsArb,
    }),
    { selector: (m) => m.label, maxLength: 4 },
  ),
  defaults: fc.option(
    fc.record({ monitor: fc.record(monitorFields, { requiredKeys: [] }), alert: fc.record(alertFields, { requiredKeys: [] }) }, { requiredKeys: [] }),
    { nil: undefined },
  ),
  /** Alerts on monitors managed elsewhere (top-level `alerts:`). */
  alerts: fc.uniqueArray(fc.record({ monitor: name.map((n) => `ext:${n}`), subject_init: identity, subject_term: name, rest: fc.record(alertFields, { requiredKeys: ['timeout'] }) }), {
    selector: (a) => `${a.monitor}\n${a.subject_init}`,
    maxLength: 2,
  }),
  groups: fc.uniqueArray(
    fc.record({ name: identity, previous_names: fc.uniqueArray(name.map((n) => `old ${n}`), { maxLength: 2 }), monitors: fc.uniqueArray(name, { maxLength: 3 }) }),
    { selector: (g) => g.name, maxLength: 2 },
  ),
});

/** How each node is written; drawn per node from `choices` in turn. */
const styleArb = fc.record({
  choices: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
  comments: fc.array(fc.string({ maxLength: 10 }).map((s) => s.replace(/[\r\n\u0085\u2028\u2029]/g, '')), { minLength: 16, maxLength: 16 }),
  indent: fc.constantFrom(2, 3, 4),
  indentSeq: fc.boolean(),
});

/** The configuration as a YAML document, written in a random style. */
type Value<A> = A extends fc.Arbitrary<infer T> ? T : never;

function render(c: Value<typeof configArb>, style: Value<typeof styleArb>): string {
  let n = 0;
  const pick = (k: number) => style.choices[n++ % style.choices.length]! % k;
  let m = 0;
  const comment = () => ` ${style.comments[m++ % style.comments.length]}`;

  const doc = new Document<Node, true>({});
  const top = doc.contents as unknown as YAMLMap;
  top.add(doc.createPair('version', 1));
  if (c.settings) top.add(doc.createPair('settings', c.settings));
  const sharedNode = doc.createNode(c.shared);
  sharedNode.anchor = 'shared';
  top.add(doc.createPair('x-shared', sharedNode));
  const monitors = c.monitors.map((mon) => {
    const item: Obj = { label: mon.label };
    for (const k of Object.keys(monitorFields)) {
      if (mon.keep.includes(k) || !mon.merge) (item as Obj)[k] = (mon.own as Obj)[k];
    }
    if (!mon.merge) for (const k of REQUIRED) item[k] = mon.own[k];
    if (mon.alerts.length > 0) item.alerts = mon.alerts.map((a) => ({ subject_init: a.subject_init, subject_term: a.subject_term, ...a.rest }));
    const node = doc.createNode(item) as YAMLMap;
    if (mon.merge) node.items.splice(pick(node.items.length + 1), 0, doc.createPair(new Scalar('<<'), doc.createAlias(sharedNode)) as Pair);
    return node;
  });
  const seq = doc.createNode([]) as YAMLSeq;
  seq.items.push(...monitors);
  if (monitors.length > 0) top.add(doc.createPair('monitors', seq));
  if (c.defaults) top.add(doc.createPair('defaults', c.defaults));
  if (c.alerts.length > 0) top.add(doc.createPair('alerts', c.alerts.map((a) => ({ monitor: a.monitor, subject_init: a.subject_init, subject_term: a.subject_term, ...a.rest }))));
  if (c.groups.length > 0) top.add(doc.createPair('groups', c.groups));

  // Shuffle keys, pick styles, sprinkle comments and blank lines.
  visit(doc, {
    Map(_k, map) {
      for (let i = map.items.length - 1; i > 0; i--) {
        const j = pick(i + 1);
        [map.items[i], map.items[j]] = [map.items[j]!, map.items[i]!];
      }
      // `x-shared` holds the anchor: it must stay before the monitors using it.
      if (map === top) {
        const at = map.items.findIndex((p) => isScalar(p.key) && p.key.value === 'x-shared');
        const [shared] = map.items.splice(at, 1);
        map.items.unshift(shared!);
      }
    },
    Pair(_k, pair) {
      if (isScalar(pair.key) && pick(4) === 0) pair.key.commentBefore = comment();
      if (isScalar(pair.key) && pick(4) === 0) pair.key.spaceBefore = true;
      // Not empty: the YAML parser drops an empty comment after a block scalar's `|` (fmt then
      // refuses the file, as test/fmt/format.test.ts shows).
      if (isScalar(pair.value) && pick(5) === 0) pair.value.comment = comment().replace(/^ $/, ' -');
    },
    Seq(_k, s) {
      if (s.items.every((i) => isScalar(i)) && pick(2) === 0) s.flow = true;
    },
    Scalar(key, s) {
      // The merge key must stay plain to be one; the text "<<" is quoted so it stays text.
      if (s.value === '<<') s.type = key === 'key' ? 'PLAIN' : 'QUOTE_DOUBLE';
      else if (typeof s.value === 'string' && !s.value.includes('\n')) s.type = (['PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE'] as const)[pick(3)];
      if (typeof s.value === 'string' && s.value.includes('\n')) s.type = (['BLOCK_LITERAL', 'QUOTE_DOUBLE'] as const)[pick(2)];
    },
  });
  visit(doc, {
    Map(_k, map) {
      if (map !== top && map.items.every((p) => isPair(p) && isScalar(p.value)) && pick(3) === 0) map.flow = true;
    },
  });
  for (const node of [top, ...seq.items]) {
    if (isMap(node) && pick(3) === 0) (node as Node).commentBefore = comment();
  }
  doc.commentBefore = pick(2) === 0 ? ' yaml-language-server: $schema=../schemas/monsync.schema.json' : null;
  if (pick(3) === 0) doc.comment = comment();
  return doc.toString({ indent: style.indent, indentSeq: style.indentSeq, lineWidth: 0 });
}

describe('random configurations written in random styles', () => {
  it('always format, twice the same, with every comment and the same loaded state', async () => {
    let valid = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(configArb, styleArb, async (c, style) => {
        const original = render(c, style);
        // Compared whatever it is: the state, or the same problems (a rule the generator missed).
        const before = await loaded({ 'monsync.yaml': original });
        runs++;
        if ('state' in (before as object)) valid++;

        const r = await format(original);
        if (!r.ok) expect.fail(`${r.diagnostics.map((d) => d.message).join('\n')}\n--- input:\n${original}`);
        expect(commentsOf(r.text)).toEqual(commentsOf(original));
        expect(await loaded({ 'monsync.yaml': r.text }), `--- input:\n${original}--- formatted:\n${r.text}`).toEqual(before);
        const again = await format(r.text);
        expect(again, `--- formatted:\n${r.text}`).toEqual({ ok: true, text: r.text });
      }),
      { numRuns: 200 },
    );
    // Most of them must be valid configurations, or the same-state comparison proves little.
    expect(valid / runs).toBeGreaterThan(0.8);
  }, 300_000);
});
