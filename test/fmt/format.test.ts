/** formatConfigText: the canonical layout, what it keeps, and what it refuses. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commentsOf, formatConfigText } from '../../src/config/format/format.js';
import { shapeOf } from '../../src/config/format/shape.js';
import { loadConfig } from '../../src/config/index.js';
import { writeTree } from '../config/helpers.js';
import { format, formatted, loaded } from './helpers.js';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('key order', () => {
  it('puts keys in the schema order: label first, alerts last, subject_init and subject_term first in alerts', async () => {
    const text = lines(
      'groups:',
      '  - monitors: [a]',
      '    name: g',
      'monitors:',
      '  - alerts:',
      '      - timeout: 5',
      '        subject_term: up',
      '        subject_init: down',
      '    test_account: p@example.com',
      '    label: a',
      '    ip_address: mx',
      'version: 1',
      'settings:',
      '  prune: false',
      '  owner: me',
    );
    expect(await formatted(text)).toBe(
      lines(
        'version: 1',
        'settings:',
        '  owner: me',
        '  prune: false',
        'monitors:',
        '  - label: a',
        '    ip_address: mx',
        '    test_account: p@example.com',
        '    alerts:',
        '      - subject_init: down',
        '        subject_term: up',
        '        timeout: 5',
        'groups:',
        '  - name: g',
        '    monitors: [a]',
      ),
    );
  });

  it('writes what an item is and where it tests first: label, previous labels, ip_address, port, then how it tests', async () => {
    const text = lines(
      'version: 1',
      'monitors:',
      '  - timer: 5',
      '    use_tls: "on"',
      '    port: 587',
      '    test_account: p@example.com',
      '    ip_address: mx',
      '    previous_labels: [old]',
      '    label: m',
      '    alerts:',
      '      - timeout: 5',
      '        previous_subjects: [d0]',
      '        subject_term: u',
      '        subject_init: d',
      'groups:',
      '  - monitors: [m]',
      '    previous_names: [g0]',
      '    name: g',
    );
    expect(await formatted(text)).toBe(
      lines(
        'version: 1',
        'monitors:',
        '  - label: m',
        '    previous_labels: [old]',
        '    ip_address: mx',
        '    port: 587',
        '    test_account: p@example.com',
        '    use_tls: "on"',
        '    timer: 5',
        '    alerts:',
        '      - subject_init: d',
        '        subject_term: u',
        '        previous_subjects: [d0]',
        '        timeout: 5',
        'groups:',
        '  - name: g',
        '    previous_names: [g0]',
        '    monitors: [m]',
      ),
    );
  });

  it('writes flow mappings with spaces inside the braces and flow lists without, as prettier does', async () => {
    const text = lines('version: 1', 'settings: {owner: me,   ignore: [ a-*, b-* ]}', 'monitors:', '  - { label: m, meta: {   a: "1"}, alerts: [] }');
    expect(await formatted(text)).toBe(
      lines('version: 1', 'settings: { owner: me, ignore: [a-*, b-*] }', 'monitors:', '  - { label: m, meta: { a: "1" }, alerts: [] }'),
    );
  });

  it('takes the order from the schema it is given, not from a list of its own', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/monsync.schema.json', import.meta.url), 'utf8'));
    const settings = schema.properties.settings;
    settings.properties = Object.fromEntries(Object.entries(settings.properties).reverse());
    const r = formatConfigText('version: 1\nsettings:\n  owner: me\n  prune: false\n', { shape: shapeOf(schema) });
    expect(r).toEqual({ ok: true, text: 'version: 1\nsettings:\n  prune: false\n  owner: me\n' });
  });

  it('puts merge keys and x- keys right after the identity and required keys, in their written order', async () => {
    const text = lines(
      'x-b: &b {test_account: p@example.com}',
      'x-a: &a {ip_address: mx}',
      'monitors:',
      '  - <<: *a',
      '    timer: 5',
      '    <<: *b',
      '    label: m',
      'version: 1',
    );
    expect(await formatted(text)).toBe(
      lines(
        'version: 1',
        'x-b: &b { test_account: p@example.com }',
        'x-a: &a { ip_address: mx }',
        'monitors:',
        '  - label: m',
        '    <<: *a',
        '    <<: *b',
        '    timer: 5',
      ),
    );
  });

  it('leaves the order of meta keys and of list items as written, and puts unknown keys last', async () => {
    const text = lines('version: 1', 'monitors:', '  - meta: {z: "1", a: "2"}', '    lable: b', '    label: b', '  - label: a');
    expect(await formatted(text)).toBe(lines('version: 1', 'monitors:', '  - label: b', '    meta: { z: "1", a: "2" }', '    lable: b', '  - label: a'));
  });
});

describe('comments and blank lines', () => {
  it('keeps comments above, beside and below items, moving with their item', async () => {
    const text = lines(
      'version: 1',
      'settings:',
      '  # who owns the monitors',
      '  owner: me # the team',
      '  # which monitors are left alone',
      '  ignore: [legacy-*]',
      '  # below the last setting',
      'defaults:',
      '  # alert defaults',
      '  alert:',
      '    timeout: 5',
      '  monitor:',
      '    timer: 5 # minutes',
    );
    expect(await formatted(text)).toBe(
      lines(
        'version: 1',
        'settings:',
        '  # who owns the monitors',
        '  owner: me # the team',
        '  # which monitors are left alone',
        '  ignore: [legacy-*]',
        '  # below the last setting',
        'defaults:',
        '  monitor:',
        '    timer: 5 # minutes',
        '  # alert defaults',
        '  alert:',
        '    timeout: 5',
      ),
    );
  });

  it('keeps the blank lines between items, each with the item below it', async () => {
    const text = lines('version: 1', '', 'groups:', '  - name: a', '', '  - name: b', '', 'monitors:', '  - label: m', '    ip_address: mx', '', '    alerts: []');
    expect(await formatted(text)).toBe(
      lines('version: 1', '', 'monitors:', '  - label: m', '    ip_address: mx', '', '    alerts: []', '', 'groups:', '  - name: a', '', '  - name: b'),
    );
  });

  it('keeps the modeline and the comments at the top of the file at the top when the first key moves', async () => {
    const text = lines('# yaml-language-server: $schema=../schemas/monsync.schema.json', '# Mail monitors.', 'monitors: []', 'version: 1');
    expect(await formatted(text)).toBe(
      lines('# yaml-language-server: $schema=../schemas/monsync.schema.json', '# Mail monitors.', 'version: 1', 'monitors: []'),
    );
  });

  it('keeps a comment written on the line of a key whose value is a list or mapping on that line', async () => {
    const text = lines('version: 1', 'groups:   # every group', '  # the first', '  - name: a', 'settings: # how', '  owner: me');
    expect(await formatted(text)).toBe(lines('version: 1', 'settings: # how', '  owner: me', 'groups: # every group', '  # the first', '  - name: a'));
  });

  it('keeps comments below nested items at the level they were written at', async () => {
    const text = lines(
      'version: 1',
      'monitors:',
      '  - label: a',
      '    alerts:',
      '      - subject_init: d',
      '        subject_term: u',
      '      # more alerts later',
      '  # more monitors later',
      '# end of file',
    );
    expect(await formatted(text)).toBe(text);
  });

  it('writes a flow collection with comments among its items in block style, each comment with its item', async () => {
    const text = lines('version: 1', 'groups:', '  - name: g', '    monitors: [a, # the first', '      b]');
    expect(await formatted(text)).toBe(lines('version: 1', 'groups:', '  - name: g', '    monitors:', '      - a # the first', '      - b'));
  });

  it('makes several blank lines between items one, as docs/commands.md says (a canonical layout: one blank line separates, more say nothing more)', async () => {
    const text = 'version: 1\nmonitors:\n  - label: a\n    ip_address: mx\n\n\n\n  - label: b\n    ip_address: mx\n';
    expect(await formatted(text)).toBe('version: 1\nmonitors:\n  - label: a\n    ip_address: mx\n\n  - label: b\n    ip_address: mx\n');
    const docs = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
    const fmt = docs.slice(docs.indexOf('## `monsync fmt`'), docs.indexOf('\n## ', docs.indexOf('## `monsync fmt`') + 1));
    expect(fmt).toContain('a blank line between items (several become one)');
  });

  it('drops a blank line right under a key, which separates nothing, also after an anchor', async () => {
    const text = lines('version: 1', 'x-a: &a', '', '  timer: 5', 'monitors:', '', '  - label: m', '    <<: *a');
    expect(await formatted(text)).toBe(lines('version: 1', 'x-a: &a', '  timer: 5', 'monitors:', '  - label: m', '    <<: *a'));
  });

  it('moves a comment above a key that sorting makes the first of a list item above the item', async () => {
    const text = lines('version: 1', 'groups:', '  - monitors: []', '    # the name', '    name: g');
    expect(await formatted(text)).toBe(lines('version: 1', 'groups:', '  # the name', '  - name: g', '    monitors: []'));
  });

  it('keeps a comment between two list items, indented as written, above the second', async () => {
    const text = lines('version: 1', 'monitors:', '  - label: a', '    alerts:', '      - subject_init: d', '        subject_term: u', '  # the second', '  - label: b');
    expect(await formatted(text)).toBe(text);
  });
});

describe('anchors, aliases and merge keys', () => {
  it('keeps anchors and aliases, and sorts a merged mapping in the order of where it is merged', async () => {
    const text = lines(
      'version: 1',
      'x-pager: &pager',
      '  repeat: true',
      '  alert_destinations: [ops-mail]',
      'monitors:',
      '  - label: a',
      '    time_zone: &tz Europe/London',
      '    alerts:',
      '      - subject_init: d',
      '        subject_term: u',
      '        <<: *pager',
      '  - label: b',
      '    time_zone: *tz',
    );
    expect(await formatted(text)).toBe(
      lines(
        'version: 1',
        'x-pager: &pager',
        '  alert_destinations: [ops-mail]',
        '  repeat: true',
        'monitors:',
        '  - label: a',
        '    time_zone: &tz Europe/London',
        '    alerts:',
        '      - subject_init: d',
        '        subject_term: u',
        '        <<: *pager',
        '  - label: b',
        '    time_zone: *tz',
      ),
    );
  });

  it('never moves a key that defines an anchor after a key that uses it', async () => {
    // The schema puts monitors before alerts, but the monitor's alert merges a top-level alert.
    const text = lines(
      'alerts:',
      '  - &www {monitor: www-http, subject_init: d, subject_term: u, timeout: 5}',
      'monitors:',
      '  - label: a',
      '    alerts:',
      '      - {<<: *www, subject_init: d2}',
      'version: 1',
    );
    const out = await formatted(text);
    expect(out).toBe(
      lines(
        'version: 1',
        'alerts:',
        '  - &www { monitor: www-http, subject_init: d, subject_term: u, timeout: 5 }',
        'monitors:',
        '  - label: a',
        '    alerts:',
        '      - { subject_init: d2, <<: *www }',
      ),
    );
  });

  it('keeps what an alias means when its anchor name is defined twice', async () => {
    const text = lines(
      'settings:',
      '  owner: &o first',
      'groups:',
      '  - name: *o',
      'defaults:',
      '  monitor:',
      '    time_zone: &o Europe/London',
      'x-a: *o',
      'version: 1',
    );
    const out = await formatted(text);
    expect(await loaded({ 'a.yaml': out })).toEqual(await loaded({ 'a.yaml': text }));
    // settings (first &o) before groups (its alias) before defaults (the second &o) before x-a.
    expect(out.match(/^\S+:/gm)).toEqual(['version:', 'settings:', 'groups:', 'defaults:', 'x-a:']);
  });
});

describe('scalars', () => {
  it('quotes text that YAML 1.1 tools read as a boolean, a number or a date, and no other', async () => {
    const text = lines(
      'version: 1',
      'monitors:',
      "  - label: 'mx-1'",
      '    use_tls: on',
      '    custom_subject: "007"',
      "    custom_body: '1e3'",
      '    test_account: "probe@example.com"',
      '    ip_address: "mx:failover"',
      '    message_format: "text/html"',
      '    meta: {"yes": "no", b: "2024-01-01", c: "1_000", d: "0x1F", e: "1:20", "f": "text"}',
    );
    expect(await formatted(text)).toBe(
      lines(
        'version: 1',
        'monitors:',
        '  - label: mx-1',
        '    ip_address: mx:failover',
        '    test_account: probe@example.com',
        '    use_tls: "on"',
        '    custom_subject: "007"',
        '    custom_body: "1e3"',
        '    message_format: text/html',
        '    meta: { "yes": "no", b: "2024-01-01", c: "1_000", d: "0x1F", e: "1:20", f: text }',
      ),
    );
  });

  it('keeps quotes YAML needs: leading indicators, ": ", " #", spaces at the ends, empty text', async () => {
    const text = lines('version: 1', 'monitors:', '  - label: "a: b"', '    custom_subject: "[fra]"', '    custom_body: " x "', '    ip_address: "#x"', '    test_account: ""');
    const out = await formatted(text);
    expect(out).toContain('label: "a: b"');
    expect(out).toContain('custom_subject: "[fra]"');
    expect(out).toContain('custom_body: " x "');
    expect(out).toContain('ip_address: "#x"');
    expect(out).toContain('test_account: ""');
  });

  it('keeps a quoted "<<" key as text: unquoted it would become a merge key', async () => {
    const text = lines('version: 1', 'monitors:', '  - label: a', '    meta: {"<<": x}');
    const out = await formatted(text);
    expect(out).toContain('meta: { "<<": x }');
    expect(await loaded({ 'a.yaml': out })).toEqual(await loaded({ 'a.yaml': text }));
  });

  it('writes booleans and nulls as true, false and null', async () => {
    const text = lines('version: 1', 'settings:', '  prune: False', 'monitors:', '  - label: a', '    ipv6: TRUE', '    attachment: ~');
    expect(await formatted(text)).toBe(lines('version: 1', 'settings:', '  prune: false', 'monitors:', '  - label: a', '    ipv6: true', '    attachment: null'));
  });

  it('keeps multi-line text and text with tabs in the form it was written in', async () => {
    const text = lines('version: 1', 'monitors:', '  - label: a', '    custom_body: |', '      line one', '      line two', '    custom_subject: "a\\tb"', '    ip_address: "x\\ny"');
    expect(await formatted(text)).toBe(
      lines('version: 1', 'monitors:', '  - label: a', '    ip_address: "x\\ny"', '    custom_subject: "a\\tb"', '    custom_body: |', '      line one', '      line two'),
    );
  });

  it('keeps double quotes on text holding an invisible or direction character, plain text unquoted', async () => {
    const text = lines('version: 1', 'monitors:', '  - label: "a\\u200bb"', '    custom_subject: "x\\u202ey"', '    custom_body: "plain"');
    const out = await formatted(text);
    expect(out).toBe(lines('version: 1', 'monitors:', '  - label: "a\u200bb"', '    custom_subject: "x\u202ey"', '    custom_body: plain'));
    expect(await loaded({ 'a.yaml': out })).toEqual(await loaded({ 'a.yaml': text }));
  });
});

describe('layout', () => {
  it('indents by two spaces and indents list items under their key, whatever the input did', async () => {
    const text = lines('version: 1', 'monitors:', '-   label: a', '    alerts:', '    -     subject_init: d', '          subject_term: u');
    expect(await formatted(text)).toBe(lines('version: 1', 'monitors:', '  - label: a', '    alerts:', '      - subject_init: d', '        subject_term: u'));
  });

  it('keeps CRLF line ends', async () => {
    expect(await formatted('monitors: []\r\nversion: 1\r\n')).toBe('version: 1\r\nmonitors: []\r\n');
  });

  it('is idempotent on an already formatted file and leaves it byte for byte', async () => {
    const text = readFileSync(new URL('../fixtures/fmt/messy.formatted.yaml', import.meta.url), 'utf8');
    expect(await formatted(text)).toBe(text);
  });
});

describe('refusals', () => {
  it('reports a YAML syntax error at its file, line and column, as validate does, and returns no text', async () => {
    const text = 'version: 1\nmonitors: [a, b\ngroups: []\n';
    const r = await format(text, 'a.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`)).toEqual([
      'a.yaml:3:1: flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
    const dir = await writeTree({ 'a.yaml': text });
    const validate = await loadConfig(['a.yaml'], { cwd: dir, env: {} });
    expect(validate).toEqual({ diagnostics: r.diagnostics });
  });

  it('refuses an alias without an anchor before it, naming where', async () => {
    const r = await format('monitors: *m\nversion: 1\n');
    expect(r).toEqual({ ok: false, diagnostics: [expect.objectContaining({ line: 1, column: 11, message: 'alias *m has no anchor &m defined before it' })] });
  });
});

describe('the check of the result', () => {
  it('refuses, naming the comment, a file with a comment the YAML library cannot keep', async () => {
    // The parser drops an empty comment after a block scalar header: rewriting would lose it.
    const text = lines('version: 1', 'monitors:', '  - label: a', '    custom_body: |- #', '      x');
    const r = await format(text);
    expect(r).toEqual({
      ok: false,
      diagnostics: [
        {
          file: 'monsync.yaml',
          line: 1,
          column: 1,
          message: 'formatting would lose or change the comment "#", so the file was left as it is (please report this as a bug)',
        },
      ],
    });
  });
});

describe('commentsOf', () => {
  it('lists comment lines, not "#" inside quoted text or block scalars', () => {
    expect(commentsOf('# a\nk: "#no" # b\nt: |\n  # not a comment\n')).toEqual(['# a', '# b']);
  });
});
