/**
 * The benchmark account and the configurations planned against it, generated deterministically:
 * the same counts, labels and values on every run, so figures compare between runs.
 *
 * Live side (seeded through the emulator's control API): destinations, managed SMTP monitors with
 * their alerts and groups, plus unmanaged SMTP monitors and monitors of other types. Config side:
 * YAML files that match the live side exactly (plan: no changes), and variants with 1% of the
 * resources changed and with 100 monitors renamed.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

export const OWNER = 'monsync';
const TIMERS = [5, 10, 15];
const ZONES = ['Europe/Berlin', 'Europe/London', 'America/New_York', 'Asia/Tokyo'];
const DEFAULT_TIMER = 5;
const DEFAULT_ZONE = 'Europe/Berlin';
const TEST_ACCOUNT = 'probe@example.com';

const pad = (n, w) => String(n).padStart(w, '0');
/** JSON strings are valid YAML double-quoted scalars: no escaping rules of our own. */
const y = (s) => JSON.stringify(s);

export function sizes(opts = {}) {
  const monitors = opts.monitors ?? 10_000;
  return {
    monitors,
    alertsPerMonitor: opts.alertsPerMonitor ?? 2,
    groups: opts.groups ?? 500,
    destinations: opts.destinations ?? 50,
    unmanagedSmtp: opts.unmanagedSmtp ?? 500,
    otherType: opts.otherType ?? 100,
  };
}

export function monitorLabel(i) {
  return `mx-${pad(i, 5)}`;
}
export function destinationLabel(i) {
  return `ops-${pad(i, 2)}`;
}
export function groupName(i) {
  return `group-${pad(i, 3)}`;
}

/** The spec of managed monitor i: a few fields vary so the account is not uniform. */
function monitorSpec(i) {
  return {
    ip_address: i % 7 === 0 ? 'mx:failover' : `mx${i}.mail.example.com`,
    timer: TIMERS[i % TIMERS.length],
    time_zone: ZONES[i % ZONES.length],
    port: i % 11 === 0 ? 587 : 25,
    use_tls: i % 11 === 0 ? 'on' : 'auto',
    region: ['eu', 'us', 'apac'][i % 3],
  };
}

function alertSpecs(i, sz) {
  const label = monitorLabel(i);
  const all = [
    {
      subject_init: `${label} is DOWN`,
      subject_term: `${label} is UP`,
      // Longer than the monitor's timer, as the checks advise (alert/timeout-at-timer): the plans
      // measured here carry no findings, like a well-kept account.
      timeout: monitorSpec(i).timer === 15 ? 20 : 15,
      destinations: [i % sz.destinations],
      repeat: i % 5 === 0,
    },
    {
      subject_init: `${label} down for an hour`,
      subject_term: `${label} recovered`,
      timeout: 60,
      destinations: [i % sz.destinations, (i + 1) % sz.destinations],
      down_only: true,
    },
  ];
  return all.slice(0, sz.alertsPerMonitor);
}

const groupOf = (i, sz) => i % sz.groups;

/** Raw live objects in seed order; alerts and groups name monitors by index (`$m`), mapped to ids when seeding. */
export function liveObjects(opts = {}) {
  const sz = sizes(opts);
  const destinations = [];
  for (let d = 0; d < sz.destinations; d++) {
    destinations.push({
      label: destinationLabel(d),
      destination: `ops-${pad(d, 2)}@example.com`,
      type: d % 10 === 9 ? 'sms' : 'email',
      subscribed: true,
    });
  }
  const monitors = [];
  const alerts = [];
  for (let i = 0; i < sz.monitors; i++) {
    const s = monitorSpec(i);
    // The shape the service returns for an SMTP monitor created through the API (2.2).
    monitors.push({
      label: monitorLabel(i),
      type: 'smtp',
      description: null,
      ip_address: s.ip_address,
      port: s.port,
      ipv6: false,
      use_tls: s.use_tls,
      use_client_cert: false,
      test_account: TEST_ACCOUNT,
      attachment: '',
      custom_subject: '',
      custom_body: '',
      message_format: 'text/plain',
      timer: s.timer,
      ttl: 0,
      timeout: 30,
      time_zone: s.time_zone,
      data_label: 'seconds',
      meta: { 'managed-by': OWNER, region: s.region },
      alerts: [],
      groups: [],
    });
    for (const a of alertSpecs(i, sz)) {
      alerts.push({
        type: 'up-down',
        $m: i,
        $d: a.destinations,
        subject_init: a.subject_init,
        subject_term: a.subject_term,
        message_init: '',
        message_term: '',
        down_only: a.down_only ?? false,
        repeat: a.repeat ?? false,
        timeout: a.timeout,
        violations: '0',
      });
    }
  }
  for (let u = 0; u < sz.unmanagedSmtp; u++) {
    monitors.push({
      label: `hand-made-${pad(u, 4)}`,
      type: 'smtp',
      description: 'made in the web console',
      ip_address: `relay${u}.example.net`,
      port: 25,
      ipv6: false,
      use_tls: 'auto',
      use_client_cert: false,
      test_account: 'console@example.com',
      attachment: '',
      custom_subject: '',
      custom_body: '',
      message_format: 'text/plain',
      timer: 10,
      ttl: 0,
      timeout: 30,
      time_zone: 'UTC',
      data_label: 'seconds',
      meta: {},
      alerts: [],
      groups: [],
    });
  }
  for (let o = 0; o < sz.otherType; o++) {
    monitors.push({ label: `www-${pad(o, 3)}`, type: 'http', hostname: `www${o}.example.com`, timer: '5', meta: {}, alerts: [], groups: [] });
  }
  const groups = [];
  for (let g = 0; g < sz.groups; g++) groups.push({ name: groupName(g), $members: [] });
  for (let i = 0; i < sz.monitors; i++) groups[groupOf(i, sz)].$members.push(i);
  return { sizes: sz, destinations, monitors, alerts, groups };
}

/**
 * One control API call on a connection of its own: a kept-alive socket the emulator has already
 * closed would fail a call that cannot safely be repeated (seed).
 */
function control(url, method, path, body) {
  const u = new URL(`${url}/_emulator/${path}`);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method,
        agent: false,
        headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          let json;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            reject(new Error(`emulator control ${method} ${path}: HTTP ${res.statusCode}, not JSON`));
            return;
          }
          if (res.statusCode < 200 || res.statusCode >= 300) {
            reject(new Error(`emulator control ${method} ${path}: HTTP ${res.statusCode} ${json.error ?? ''}`));
          } else resolve(json);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
export { control };

/** Seeds the objects through POST /_emulator/seed in chunks; returns the ids the emulator assigned. */
export async function seedAccount(url, objs, chunk = 2000) {
  const ids = { destinations: [], monitors: [], alerts: [], groups: [] };
  const put = async (key, list, map) => {
    for (let k = 0; k < list.length; k += chunk) {
      const part = list.slice(k, k + chunk).map(map);
      const r = await control(url, 'POST', 'seed', { [key]: part });
      ids[key].push(...r[key]);
    }
  };
  await put('destinations', objs.destinations, (o) => o);
  await put('monitors', objs.monitors, (o) => o);
  await put('alerts', objs.alerts, ({ $m, $d, ...o }) => ({
    ...o,
    monitor: ids.monitors[$m],
    alert_destinations: $d.map((d) => ids.destinations[d]),
  }));
  await put('groups', objs.groups, ({ $members, ...o }) => ({ ...o, monitors: $members.map((i) => ids.monitors[i]) }));
  return ids;
}

/**
 * Writes the configuration for a scenario into `dir`: settings.yaml (settings and defaults),
 * monitors-NN.yaml (1,000 monitors each) and groups.yaml.
 *   base:    matches the seeded account exactly
 *   changed: 1% of each kind changed (100 monitors, 200 alerts, 5 groups at the default sizes)
 *   renamed: 100 monitors renamed, with previous_labels
 */
export function writeConfig(dir, scenario, opts = {}) {
  const sz = sizes(opts);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const every = Math.round(100 / 1); // 1 in 100
  const changedMonitor = (i) => scenario === 'changed' && i % every === 3;
  const changedAlert = (i) => scenario === 'changed' && i % every === 7; // both alerts of 1% of monitors
  const renamed = (i) => scenario === 'renamed' && i % every === 5;
  const label = (i) => (renamed(i) ? `${monitorLabel(i)}-renamed` : monitorLabel(i));
  // Five groups spread over the range (0, 100, ... 400 of the default 500).
  const changedGroups = new Set(scenario === 'changed' ? [0, 1, 2, 3, 4].map((k) => Math.floor((k * sz.groups) / 5)) : []);

  writeFileSync(
    join(dir, 'settings.yaml'),
    [
      'version: 1',
      'settings:',
      `  owner: ${OWNER}`,
      '  prune: false',
      'defaults:',
      '  monitor:',
      `    test_account: ${y(TEST_ACCOUNT)}`,
      `    timer: ${DEFAULT_TIMER}`,
      `    time_zone: ${DEFAULT_ZONE}`,
      '  alert:',
      '    timeout: 15',
      `    alert_destinations: [${destinationLabel(0)}]`,
      '',
    ].join('\n'),
  );

  const perFile = 1000;
  for (let f = 0; f * perFile < sz.monitors; f++) {
    const lines = ['version: 1', 'monitors:'];
    for (let i = f * perFile; i < Math.min(sz.monitors, (f + 1) * perFile); i++) {
      const s = monitorSpec(i);
      lines.push(`  - label: ${y(label(i))}`);
      if (renamed(i)) lines.push(`    previous_labels: [${y(monitorLabel(i))}]`);
      lines.push(`    ip_address: ${y(s.ip_address)}`);
      // Never above an alert's timeout (alert/timeout-below-timer).
      const timer = changedMonitor(i) ? (s.timer === 5 ? 10 : 5) : s.timer;
      if (timer !== DEFAULT_TIMER) lines.push(`    timer: ${timer}`);
      if (s.time_zone !== DEFAULT_ZONE) lines.push(`    time_zone: ${s.time_zone}`);
      if (s.port !== 25) lines.push(`    port: ${s.port}`);
      if (s.use_tls !== 'auto') lines.push(`    use_tls: ${s.use_tls}`);
      lines.push(`    meta: { region: ${s.region} }`);
      lines.push('    alerts:');
      for (const a of alertSpecs(i, sz)) {
        lines.push(`      - subject_init: ${y(a.subject_init)}`);
        lines.push(`        subject_term: ${y(a.subject_term)}`);
        const timeout = changedAlert(i) ? a.timeout + 5 : a.timeout;
        if (timeout !== 15) lines.push(`        timeout: ${timeout}`);
        const dests = a.destinations.map(destinationLabel);
        if (!(dests.length === 1 && dests[0] === destinationLabel(0))) lines.push(`        alert_destinations: [${dests.join(', ')}]`);
        if (a.repeat) lines.push('        repeat: true');
        if (a.down_only) lines.push('        down_only: true');
      }
    }
    lines.push('');
    writeFileSync(join(dir, `monitors-${pad(f, 2)}.yaml`), lines.join('\n'));
  }

  const members = Array.from({ length: sz.groups }, () => []);
  for (let i = 0; i < sz.monitors; i++) members[groupOf(i, sz)].push(label(i));
  const lines = ['version: 1', 'groups:'];
  for (let g = 0; g < sz.groups; g++) {
    // A changed group loses its first member (the monitor stays, outside the group).
    const m = changedGroups.has(g) ? members[g].slice(1) : members[g];
    lines.push(`  - name: ${y(groupName(g))}`, `    monitors: [${m.map(y).join(', ')}]`);
  }
  lines.push('');
  writeFileSync(join(dir, 'groups.yaml'), lines.join('\n'));

  const expect = {
    base: { create: 0, update: 0, delete: 0 },
    changed: {
      create: 0,
      update: count(sz.monitors, changedMonitor) + sz.alertsPerMonitor * count(sz.monitors, changedAlert) + changedGroups.size,
      delete: 0,
    },
    renamed: { create: 0, update: count(sz.monitors, renamed), delete: 0 },
  }[scenario];
  return expect;
}

function count(n, pred) {
  let c = 0;
  for (let i = 0; i < n; i++) if (pred(i)) c++;
  return c;
}

/**
 * The apply workload: `creates` creates in all, as monitors each with one alert, in groups of 12
 * members. Returns the expected summary and the dependency depth (monitor, then its alert and group).
 */
export function writeApplyConfig(dir, creates = 1000, opts = {}) {
  const sz = sizes(opts);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const perGroup = 12;
  // m monitors + m alerts + ceil(m / perGroup) groups = creates
  let m = Math.floor(creates / (2 + 1 / perGroup));
  while (2 * m + Math.ceil(m / perGroup) < creates) m++;
  while (2 * m + Math.ceil(m / perGroup) > creates) m--;
  const groups = Math.ceil(m / perGroup);
  const extraAlerts = creates - (2 * m + groups); // top up to exactly `creates` with second alerts
  const lines = [
    'version: 1',
    'settings:',
    `  owner: ${OWNER}`,
    'defaults:',
    '  monitor:',
    `    test_account: ${y(TEST_ACCOUNT)}`,
    `    timer: ${DEFAULT_TIMER}`,
    `    time_zone: ${DEFAULT_ZONE}`,
    '  alert:',
    '    timeout: 15',
    `    alert_destinations: [${destinationLabel(0)}]`,
    'monitors:',
  ];
  for (let i = 0; i < m; i++) {
    lines.push(`  - label: ${y(`new-${pad(i, 4)}`)}`, `    ip_address: ${y(`new${i}.mail.example.com`)}`, '    alerts:');
    lines.push(`      - subject_init: ${y(`new-${pad(i, 4)} is DOWN`)}`, `        subject_term: ${y(`new-${pad(i, 4)} is UP`)}`);
    lines.push(`        alert_destinations: [${destinationLabel(i % sz.destinations)}]`);
    if (i < extraAlerts) {
      lines.push(`      - subject_init: ${y(`new-${pad(i, 4)} down for an hour`)}`, `        subject_term: ${y(`new-${pad(i, 4)} recovered`)}`, '        timeout: 60');
    }
  }
  lines.push('groups:');
  for (let g = 0; g < groups; g++) {
    const mem = [];
    for (let i = g * perGroup; i < Math.min(m, (g + 1) * perGroup); i++) mem.push(y(`new-${pad(i, 4)}`));
    lines.push(`  - name: ${y(`new-group-${pad(g, 3)}`)}`, `    monitors: [${mem.join(', ')}]`);
  }
  lines.push('');
  writeFileSync(join(dir, 'monsync.yaml'), lines.join('\n'));
  return { expect: { create: creates, update: 0, delete: 0 }, depth: 2, monitors: m, groups };
}

// ---- configuration styles (issue 25) ------------------------------------------------------------
/**
 * The base configuration of an account (what writeConfig's `base` writes) as plain objects: each
 * monitor with only what differs from the defaults, as a user writes it.
 */
function baseEntries(sz) {
  const monitors = [];
  for (let i = 0; i < sz.monitors; i++) {
    const s = monitorSpec(i);
    const m = { label: monitorLabel(i), ip_address: s.ip_address };
    if (s.timer !== DEFAULT_TIMER) m.timer = s.timer;
    if (s.time_zone !== DEFAULT_ZONE) m.time_zone = s.time_zone;
    if (s.port !== 25) m.port = s.port;
    if (s.use_tls !== 'auto') m.use_tls = s.use_tls;
    m.meta = { region: s.region };
    m.alerts = alertSpecs(i, sz).map((a) => {
      const o = { subject_init: a.subject_init, subject_term: a.subject_term };
      if (a.timeout !== 15) o.timeout = a.timeout;
      const dests = a.destinations.map(destinationLabel);
      if (!(dests.length === 1 && dests[0] === destinationLabel(0))) o.alert_destinations = dests;
      if (a.repeat) o.repeat = true;
      if (a.down_only) o.down_only = true;
      return o;
    });
    monitors.push(m);
  }
  const members = Array.from({ length: sz.groups }, () => []);
  for (let i = 0; i < sz.monitors; i++) members[groupOf(i, sz)].push(monitorLabel(i));
  const groups = members.map((m, g) => ({ name: groupName(g), monitors: m }));
  const defaults = {
    monitor: { test_account: TEST_ACCOUNT, timer: DEFAULT_TIMER, time_zone: DEFAULT_ZONE },
    alert: { timeout: 15, alert_destinations: [destinationLabel(0)] },
  };
  return { settings: { owner: OWNER, prune: false }, defaults, monitors, groups };
}

/** A value on one line of YAML: JSON's spelling, which YAML reads the same. */
const flow = (v) =>
  Array.isArray(v) ? `[${v.map(flow).join(', ')}]` : v && typeof v === 'object' ? `{ ${Object.entries(v).map(([k, x]) => `${k}: ${flow(x)}`).join(', ')} }` : JSON.stringify(v);

/** Block YAML lines of one monitor under a list, each alert merging `mergeAlert` when given. */
function monitorLines(m, { mergeMonitor, mergeAlert } = {}) {
  const lines = [];
  let first = true;
  const item = (text) => {
    lines.push(`${first ? '  - ' : '    '}${text}`);
    first = false;
  };
  if (mergeMonitor) item(`<<: *${mergeMonitor}`);
  for (const [k, v] of Object.entries(m)) {
    if (k === 'alerts') continue;
    item(`${k}: ${flow(v)}`);
  }
  item('alerts:');
  for (const a of m.alerts) {
    let firstA = true;
    const field = (text) => {
      lines.push(`${firstA ? '      - ' : '        '}${text}`);
      firstA = false;
    };
    if (mergeAlert) field(`<<: *${mergeAlert}`);
    for (const [k, v] of Object.entries(a)) field(`${k}: ${flow(v)}`);
  }
  return lines;
}

function groupsFile(dir, groups) {
  const lines = ['version: 1', 'groups:'];
  for (const g of groups) lines.push(`  - name: ${flow(g.name)}`, `    monitors: ${flow(g.monitors)}`);
  writeFileSync(join(dir, 'groups.yaml'), `${lines.join('\n')}\n`);
}

/**
 * The same account's base configuration written in another style (the plan of each is the same):
 *   anchors: files of 1,000 monitors, each file defining `x-monitor: &monitor` and `x-alert: &alert`
 *            with the shared values, every monitor `<<: *monitor` and every alert `<<: *alert`;
 *   files:   `defaults:` in settings.yaml and one file per monitor (mx-NNNNN.yaml);
 *   json:    one pretty-printed JSON file of everything, as a program writes an inventory.
 * Returns the number of files and bytes written.
 */
export function writeStyle(dir, style, opts = {}) {
  const sz = sizes(opts);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const base = baseEntries(sz);
  let files = 0;
  let bytes = 0;
  const write = (name, text) => {
    writeFileSync(join(dir, name), text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  if (style === 'json') {
    write('inventory.json', `${JSON.stringify({ version: 1, ...base }, null, 2)}\n`);
    return { files, bytes };
  }
  const settings = ['version: 1', 'settings:', `  owner: ${OWNER}`, '  prune: false'];
  if (style === 'files') {
    settings.push('defaults:', `  monitor: ${flow(base.defaults.monitor)}`, `  alert: ${flow(base.defaults.alert)}`);
  }
  write('settings.yaml', `${settings.join('\n')}\n`);
  if (style === 'files') {
    for (const m of base.monitors) write(`${m.label}.yaml`, `version: 1\nmonitors:\n${monitorLines(m).join('\n')}\n`);
  } else if (style === 'anchors') {
    const perFile = 1000;
    for (let f = 0; f * perFile < base.monitors.length; f++) {
      const lines = [
        'version: 1',
        'x-monitor: &monitor',
        ...Object.entries(base.defaults.monitor).map(([k, v]) => `  ${k}: ${flow(v)}`),
        'x-alert: &alert',
        ...Object.entries(base.defaults.alert).map(([k, v]) => `  ${k}: ${flow(v)}`),
        'monitors:',
      ];
      for (const m of base.monitors.slice(f * perFile, (f + 1) * perFile)) lines.push(...monitorLines(m, { mergeMonitor: 'monitor', mergeAlert: 'alert' }));
      write(`monitors-${pad(f, 2)}.yaml`, `${lines.join('\n')}\n`);
    }
  } else {
    throw new Error(`unknown style ${style}`);
  }
  groupsFile(dir, base.groups);
  files++;
  return { files, bytes };
}

/** The hostile file of issue 25: 5 anchors used 45,000 times (each under yaml's per-anchor cap), about 180 KB. */
export function writeHostile(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const anchors = [0, 1, 2, 3, 4].map((a) => `x-a${a}: &a${a} { k: v }`);
  const uses = Array.from({ length: 45_000 }, (_, i) => `*a${i % 5}`).join(',');
  const text = `version: 1\n${anchors.join('\n')}\nx-uses: [${uses}]\n`;
  writeFileSync(join(dir, 'hostile.yaml'), text);
  return { files: 1, bytes: Buffer.byteLength(text) };
}

/**
 * A repository of `count` declared accounts (issue 38) over the configuration writeConfig wrote in
 * `dir`: its settings.yaml becomes monsync.yaml, declaring accounts `a00`, `a01`, ... that all take
 * the same files (the directory), each with a variable of its own. Returns the declaring file, the
 * account names and the number of files each account loads.
 */
export function writeAccountsRepo(dir, count) {
  const settings = readFileSync(join(dir, 'settings.yaml'), 'utf8');
  rmSync(join(dir, 'settings.yaml'));
  const names = Array.from({ length: count }, (_, i) => `a${pad(i, 2)}`);
  const declared = names.map((n, i) => `    ${n}:\n      paths: [shared/]\n      vars: { REGION: r${i} }\n`).join('');
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  const moved = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  for (const f of moved) renameSync(join(dir, f), join(shared, f));
  const file = join(dir, 'monsync.yaml');
  writeFileSync(file, settings.replace('  prune: false\n', `  prune: false\n  accounts:\n${declared}`));
  return { file, shared, names, files: moved.length + 1 };
}
