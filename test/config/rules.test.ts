/**
 * Table-driven rules that need more than one file, or the state that comes out, with exact
 * positions. Single-file rules are in the corpus (bad-corpus.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { formatDiagnostics, loadConfig } from '../../src/config/index.js';
import { brief, diagnosticsOf, loadFiles, monitorYaml, stateOf, writeTree, type Brief } from './helpers.js';

interface Case {
  name: string;
  files: Record<string, string>;
  env?: Record<string, string>;
  expected: Brief[];
}

const SETTINGS_A = 'version: 1\nsettings:\n  owner: mail-team\n';
const DEFAULTS = 'version: 1\ndefaults:\n  monitor:\n    timer: 5\n';

const cases: Case[] = [
  {
    name: 'settings in two files with different values',
    files: { 'a.yaml': SETTINGS_A, 'b.yaml': 'version: 1\nsettings:\n  owner: other-team\n' },
    expected: [
      {
        file: 'b.yaml',
        line: 2,
        column: 1,
        message: 'settings is also defined at a.yaml:2:1 with different values; define settings in one file only',
      },
    ],
  },
  {
    name: 'defaults in two files with different values',
    files: { 'a.yaml': DEFAULTS, 'b.yaml': '# second\nversion: 1\ndefaults:\n  monitor:\n    timer: 10\n' },
    expected: [
      {
        file: 'b.yaml',
        line: 3,
        column: 1,
        message: 'defaults is also defined at a.yaml:2:1 with different values; define defaults in one file only',
      },
    ],
  },
  {
    name: 'the same label in two files',
    files: {
      'a.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-1')}`,
      'b.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-2')}${monitorYaml('mx-1')}`,
    },
    expected: [{ file: 'b.yaml', line: 8, column: 12, message: 'monitor label "mx-1" is already defined at a.yaml:3:12' }],
  },
  {
    name: 'the same group name in two files',
    files: { 'a.yaml': 'version: 1\ngroups:\n  - name: web\n', 'b.yaml': 'version: 1\ngroups:\n  - { name: web, monitors: [www-http] }\n' },
    expected: [{ file: 'b.yaml', line: 3, column: 13, message: 'group name "web" is already defined at a.yaml:3:11' }],
  },
  {
    name: 'the same top-level alert in two files',
    files: {
      'a.yaml': 'version: 1\nalerts:\n  - { monitor: www-http, subject_init: www down, subject_term: up, timeout: 5 }\n',
      'b.yaml': 'version: 1\nalerts:\n  - monitor: www-http\n    subject_init: www down\n    subject_term: www up\n    timeout: 5\n',
    },
    expected: [
      {
        file: 'b.yaml',
        line: 4,
        column: 19,
        message:
          'monitor "www-http" already has an alert with subject_init "www down" (at a.yaml:3:40); subject_init identifies an alert on its monitor',
      },
    ],
  },
  {
    name: 'a top-level alert on a monitor managed in another file',
    files: {
      'a.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-1')}`,
      'b.yaml': 'version: 1\nalerts:\n  - monitor: mx-1\n    subject_init: down\n    subject_term: up\n    timeout: 5\n',
    },
    expected: [
      {
        file: 'b.yaml',
        line: 3,
        column: 14,
        message: 'monitor "mx-1" is managed in this configuration (at a.yaml:3:12): put this alert under its "alerts:"',
      },
    ],
  },
  {
    name: 'a previous label that is the label of a monitor in another file',
    files: {
      'a.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-1')}`,
      'b.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-2', '    previous_labels: [mx-0, mx-1]\n')}`,
    },
    expected: [
      {
        file: 'b.yaml',
        line: 8,
        column: 29,
        message: 'previous label "mx-1" is the label of another monitor defined at a.yaml:3:12',
      },
    ],
  },
  {
    name: 'defaults in one file apply to monitors in another (bad time zone reported once, at the default)',
    files: {
      'a.yaml': 'version: 1\ndefaults:\n  monitor:\n    time_zone: Europe/Lndon\n    timer: 5\n',
      'b.yaml':
        'version: 1\nmonitors:\n  - { label: m1, ip_address: mx, test_account: p@example.com }\n  - { label: m2, ip_address: mx, test_account: p@example.com }\n',
    },
    expected: [{ file: 'a.yaml', line: 4, column: 16, message: 'unknown time zone "Europe/Lndon"; did you mean "Europe/London"?' }],
  },
  {
    name: 'an ignore glob in the settings file catches a group member in another file',
    files: {
      'a.yaml': 'version: 1\nsettings:\n  ignore: ["legacy-*"]\n',
      'b.yaml': 'version: 1\ngroups:\n  - name: mail\n    monitors:\n      - www-http\n      - legacy-mx\n',
    },
    expected: [
      {
        file: 'b.yaml',
        line: 6,
        column: 9,
        message:
          'group member "legacy-mx" matches settings.ignore glob "legacy-*": monsync does not read ignored monitors, so it cannot put them in groups',
      },
    ],
  },
  {
    name: 'an error inside a merged template points at the template',
    files: {
      'a.yaml':
        'version: 1\nx-tmpl: &tmpl\n  time_zone: UTC\n  timer: 7\n  test_account: p@example.com\nmonitors:\n  - label: m1\n    ip_address: mx\n    <<: *tmpl\n',
    },
    expected: [{ file: 'a.yaml', line: 4, column: 10, message: 'timer must be one of 3, 5, 10, 15, 20, 30 minutes (got the number 7)' }],
  },
  {
    name: 'an unset variable is reported where it is written, other files still checked',
    files: {
      'a.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-1', '    custom_body: "host ${HOST_NAME}"\n')}`,
      'b.yaml': 'version: 1\nsettings:\n  owner: ""\n',
    },
    expected: [
      { file: 'a.yaml', line: 8, column: 24, message: 'environment variable HOST_NAME is not set (use ${HOST_NAME:-default} to give a default)' },
      { file: 'b.yaml', line: 3, column: 10, message: 'owner must not be empty' },
    ],
  },
  {
    name: 'an unset variable in a value with a type does not also produce a schema error',
    files: { 'a.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-1', '    port: ${SMTP_PORT}\n')}` },
    expected: [{ file: 'a.yaml', line: 8, column: 11, message: 'environment variable SMTP_PORT is not set (use ${SMTP_PORT:-default} to give a default)' }],
  },
  {
    name: 'diagnostics of several files come sorted by file, line and column',
    files: {
      'b.yaml': 'version: 1\nsettings:\n  prune: maybe\n  owners: x\n',
      'a.yaml': 'version: 2\n',
    },
    expected: [
      { file: 'a.yaml', line: 1, column: 10, message: 'version must be 1 (got the number 2)' },
      { file: 'b.yaml', line: 3, column: 10, message: 'prune must be true or false (got the text "maybe")' },
      { file: 'b.yaml', line: 4, column: 3, message: 'unknown key "owners" in settings; did you mean "owner"?' },
    ],
  },
];

describe('rules across files', () => {
  it.each(cases)('$name', async ({ files, env, expected }) => {
    const result = await loadFiles(files, { env: env ?? {} });
    expect(diagnosticsOf(result).map(brief)).toEqual(expected);
  });

  // A copy of settings or defaults in a second file is refused: settings-defaults-files.test.ts.
});

describe('inputs', () => {
  it('reads the .yaml and .yml files of a directory and of the directories below it, each directory\'s files before its subdirectories', async () => {
    const dir = await writeTree({
      'conf/b.yml': `version: 1\nmonitors:\n${monitorYaml('from-b')}`,
      'conf/a.yaml': `version: 1\nmonitors:\n${monitorYaml('from-a')}`,
      'conf/notes.txt': 'not yaml',
      'conf/eu/c.yaml': `version: 1\nmonitors:\n${monitorYaml('from-eu-c')}`,
      'conf/eu/deep/d.yaml': `version: 1\nmonitors:\n${monitorYaml('from-eu-deep-d')}`,
      'conf/us/a.yaml': `version: 1\nmonitors:\n${monitorYaml('from-us-a')}`,
    });
    const state = stateOf(await loadConfig(['conf'], { cwd: dir, env: {} }));
    expect(state.files).toEqual(['conf/a.yaml', 'conf/b.yml', 'conf/eu/c.yaml', 'conf/eu/deep/d.yaml', 'conf/us/a.yaml']);
    expect(state.monitors.map((m) => m.label)).toEqual(['from-a', 'from-b', 'from-eu-c', 'from-eu-deep-d', 'from-us-a']);
  });

  it('does not enter hidden directories or node_modules below a directory: they hold other tools\' YAML', async () => {
    const dir = await writeTree({
      'conf/a.yaml': `version: 1\nmonitors:\n${monitorYaml('from-a')}`,
      'conf/.github/workflows/ci.yml': 'this would fail: [',
      'conf/node_modules/x/y.yaml': 'this would fail: [',
    });
    expect(stateOf(await loadConfig(['conf'], { cwd: dir, env: {} })).files).toEqual(['conf/a.yaml']);
  });

  it('reads a file named twice (directly and through its directory) once', async () => {
    const dir = await writeTree({ 'conf/a.yaml': `version: 1\nmonitors:\n${monitorYaml('m')}` });
    const state = stateOf(await loadConfig(['conf/a.yaml', 'conf'], { cwd: dir, env: {} }));
    expect(state.files).toEqual(['conf/a.yaml']);
  });

  it('defaults to monsync.yaml in the working directory', async () => {
    const dir = await writeTree({ 'monsync.yaml': `version: 1\nmonitors:\n${monitorYaml('m')}` });
    expect(stateOf(await loadConfig([], { cwd: dir, env: {} })).files).toEqual(['monsync.yaml']);
  });

  it('says so when monsync.yaml is missing and nothing was given', async () => {
    const dir = await writeTree({});
    const [d, ...rest] = diagnosticsOf(await loadConfig([], { cwd: dir, env: {} }));
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ file: 'monsync.yaml', line: 0, column: 0 });
    expect(d!.message).toBe(`no configuration given and no monsync.yaml in ${dir}; pass config files or directories as arguments`);
  });

  it.each([
    ['a missing file', {}, ['nope.yaml'], 'nope.yaml', 'cannot read: no such file or directory'],
    ['a directory without configuration files', { 'empty/readme.md': '# hi' }, ['empty'], 'empty', 'directory contains no .yaml, .yml or .json files'],
  ])('reports %s', async (_name, files, paths, file, message) => {
    const result = await loadFiles(files, { paths });
    expect(diagnosticsOf(result).map(brief)).toEqual([{ file, line: 0, column: 0, message }]);
  });

  it('names files outside the working directory relative to it', async () => {
    const dir = await writeTree({ 'cfg/a.yaml': 'version: 3\n', 'work/.keep': '' });
    const result = await loadConfig(['../cfg/a.yaml'], { cwd: `${dir}/work`, env: {} });
    expect(diagnosticsOf(result).map((d) => d.file)).toEqual(['../cfg/a.yaml']);
  });
});

describe('environment variables', () => {
  const body = [
    'version: 1',
    'settings:',
    '  owner: ${OWNER:-mail-team}',
    'monitors:',
    '  - label: mx-${REGION}',
    '    ip_address: ${MX_HOST:-mx}',
    '    test_account: probe@example.com',
    '    time_zone: Europe/London',
    '    timer: ${TIMER:-5}',
    '    port: ${PORT}',
    '    custom_subject: "$${NOT_A_VAR} and ${EMPTY:-fallback} and [${EMPTY}]"',
    "    custom_body: '${PORT}'",
    '    meta: { build: "${BUILD:-}" }',
    '',
  ].join('\n');

  it('interpolates, applies defaults (also for empty values), keeps $${ literal and types lone plain references', async () => {
    const state = stateOf(await loadFiles({ 'a.yaml': body }, { env: { REGION: 'eu', PORT: '2525', EMPTY: '', TIMER: '10' } }));
    expect(state.settings.owner).toBe('mail-team');
    const m = state.monitors[0]!;
    expect(m.label).toBe('mx-eu');
    expect(m.spec).toEqual({
      ip_address: 'mx',
      test_account: 'probe@example.com',
      time_zone: 'Europe/London',
      timer: 10,
      port: 2525,
      custom_subject: '${NOT_A_VAR} and fallback and []',
      custom_body: '2525',
      meta: { build: '' },
    });
  });

  it('reads process.env when no env is given', async () => {
    const dir = await writeTree({ 'a.yaml': 'version: 1\nsettings:\n  owner: ${MONSYNC_TEST_OWNER_VAR}\n' });
    process.env.MONSYNC_TEST_OWNER_VAR = 'from-process';
    try {
      expect(stateOf(await loadConfig(['a.yaml'], { cwd: dir })).settings.owner).toBe('from-process');
    } finally {
      delete process.env.MONSYNC_TEST_OWNER_VAR;
    }
  });
});

describe('the desired state', () => {
  it('merges defaults under items (item wins, meta key by key), fills settings defaults and sources', async () => {
    const files = {
      'a.yaml': [
        'version: 1',
        'defaults:',
        '  monitor: { time_zone: Europe/London, timer: 5, use_tls: auto, meta: { team: mail, tier: "2" } }',
        '  alert: { timeout: 15, alert_destinations: [ops-mail], repeat: false }',
        '',
      ].join('\n'),
      'b.yaml': [
        'version: 1',
        'monitors:',
        '  - label: mx-eu-1',
        '    ip_address: mx:failover',
        '    test_account: probe@example.com',
        '    use_tls: on',
        '    attachment: null',
        '    meta: { tier: "1" }',
        '    previous_labels: [mx-europe-1]',
        '    alerts:',
        '      - subject_init: down',
        '        subject_term: up',
        '        alert_destinations: [ops-mail, oncall-sms]',
        '        repeat: true',
        '        previous_subjects: [mx down]',
        'alerts:',
        '  - { monitor: www-http, subject_init: www down, subject_term: www up, type: up-down }',
        'groups:',
        '  - name: production',
        '',
      ].join('\n'),
    };
    const state = stateOf(await loadFiles(files));
    expect(state).toEqual({
      settings: { owner: 'monsync', ignore: [], prune: false },
      files: ['a.yaml', 'b.yaml'],
      monitors: [
        {
          label: 'mx-eu-1',
          previous_labels: ['mx-europe-1'],
          spec: {
            ip_address: 'mx:failover',
            test_account: 'probe@example.com',
            time_zone: 'Europe/London',
            timer: 5,
            use_tls: 'on',
            attachment: null,
            meta: { team: 'mail', tier: '1' },
          },
          alerts: [
            {
              monitor: 'mx-eu-1',
              subject_init: 'down',
              subject_term: 'up',
              timeout: 15,
              alert_destinations: ['ops-mail', 'oncall-sms'],
              repeat: true,
              previous_subjects: ['mx down'],
              source: { file: 'b.yaml', line: 11, column: 9 },
            },
          ],
          source: { file: 'b.yaml', line: 3, column: 5 },
        },
      ],
      alerts: [
        {
          monitor: 'www-http',
          subject_init: 'www down',
          subject_term: 'www up',
          timeout: 15,
          alert_destinations: ['ops-mail'],
          repeat: false,
          previous_subjects: [],
          source: { file: 'b.yaml', line: 17, column: 5 },
        },
      ],
      groups: [{ name: 'production', previous_names: [], monitors: null, source: { file: 'b.yaml', line: 19, column: 5 } }],
    });
  });

  it('does not share arrays between items that came from one anchor', async () => {
    const yaml = [
      'version: 1',
      'x-dest: &dest [ops-mail]',
      'alerts:',
      '  - { monitor: a, subject_init: s, subject_term: t, timeout: 1, alert_destinations: *dest }',
      '  - { monitor: b, subject_init: s, subject_term: t, timeout: 1, alert_destinations: *dest }',
      '',
    ].join('\n');
    const state = stateOf(await loadFiles({ 'a.yaml': yaml }));
    expect(state.alerts[0]!.alert_destinations).toEqual(['ops-mail']);
    expect(state.alerts[0]!.alert_destinations).not.toBe(state.alerts[1]!.alert_destinations);
  });

  it('returns warnings with the state for harmless redundancy', async () => {
    const result = await loadFiles({ 'a.yaml': `version: 1\nmonitors:\n${monitorYaml('m', '    previous_labels: [m]\n')}` });
    stateOf(result);
    expect('warnings' in result && result.warnings.map(brief)).toEqual([
      {
        file: 'a.yaml',
        line: 8,
        column: 23,
        message: 'previous label "m" is the monitor\'s current label; remove it',
        severity: 'warning',
      },
    ]);
  });
});

describe('formatDiagnostics', () => {
  it('prints file:line:column: message, sorted, warnings marked', () => {
    const text = formatDiagnostics([
      { file: 'b.yaml', line: 2, column: 1, message: 'second' },
      { file: 'a.yaml', line: 9, column: 3, message: 'careful', severity: 'warning' },
      { file: 'b.yaml', line: 1, column: 7, message: 'first' },
    ]);
    expect(text).toBe('a.yaml:9:3: warning: careful\nb.yaml:1:7: first\nb.yaml:2:1: second\n');
  });
});
