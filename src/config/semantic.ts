/**
 * Stage 5b: rules that need more than one value or more than one file: unique identities
 * (labels, group names, alert subjects per monitor), renames that collide, values still missing
 * after defaults, values the service refuses that the schema cannot judge (time zones, delivery
 * targets, e-mail limits), and the boundary between managed, unmanaged and ignored monitors.
 * Destination labels and unmanaged monitor labels are left to the plan: only the account knows them.
 */
import { REQUIRED_MONITOR_FIELDS, type SourceRef } from '../model/desired.js';
import { diag, show, type Diagnostic } from './diagnostics.js';
// One glob dialect for settings.ignore everywhere: the planner's.
import { globMatch } from '../util/glob.js';
import { describeRef, usedAtNote, valuePos, type Ref, type Resolved, type ResolvedAlert, type ResolvedGroup, type ResolvedMonitor } from './resolve.js';
import { deliveryTargetProblem, testAccountProblem } from './service-values.js';
import { checkServiceLevels } from './slo.js';
import { timeZoneProblem } from './timezone.js';

function at(ref: Ref, path: (string | number)[] = []): SourceRef {
  return valuePos({ locator: ref.locator, path: [...ref.path, ...path] });
}

// Positions are worked out only for a message: storing one per label, subject and member of a
// large configuration cost more than all the checks.
const labelAt = (m: ResolvedMonitor): SourceRef => at(m.ref, ['label']);
const subjectAt = (a: ResolvedAlert): SourceRef => at(a.ref, ['subject_init']);
const nameAt = (g: ResolvedGroup): SourceRef => at(g.ref, ['name']);

/**
 * What the checks share: the sink, the ignore globs, and the monitors by label. One object made
 * once per check, passed down: no closure per item (a large configuration has 10,000 monitors).
 */
interface Ctx {
  readonly out: Diagnostic[];
  readonly globs: readonly string[];
  /** The first monitor with each label. */
  readonly labels: Map<string, ResolvedMonitor>;
  /** Labels of more than one monitor, or named by a top-level alert: see subjectOwner. */
  readonly sharedLabels: Set<string>;
}

/** Where an alert of an alert set is used, for a message at its definition; '' for any other alert. */
function setNote(a: ResolvedAlert, from: string): string {
  return a.fromSet ? usedAtNote(`alert set ${JSON.stringify(a.fromSet.name)}`, a.fromSet.use, from) : '';
}

/** A monitor's value from its template: the message at the template's field names the monitor's `template:` too. */
function originNote(m: ResolvedMonitor, origin: Ref, from: string): string {
  return m.template !== undefined && origin.path[0] === 'templates' ? usedAtNote(`monitor template ${JSON.stringify(m.template)}`, { locator: m.ref.locator, path: [...m.ref.path, 'template'] }, from) : '';
}

function fieldError(cx: Ctx, m: ResolvedMonitor, origin: Ref, problem: string): void {
  const where = valuePos(origin);
  error(cx, where, `${problem}${originNote(m, origin, where.file)}`);
}

function error(cx: Ctx, where: SourceRef, message: string): void {
  cx.out.push(diag(where.file, where, message));
}

function warn(cx: Ctx, where: SourceRef, message: string): void {
  cx.out.push(diag(where.file, where, message, 'warning'));
}

/** The settings.ignore glob `name` matches, if any. */
function ignored(cx: Ctx, name: string): string | undefined {
  const globs = cx.globs;
  return globs.length === 0 ? undefined : globs.find((g) => globMatch(g, name));
}

const ignoreNote = (glob: string) => `settings.ignore glob ${JSON.stringify(glob)}`;

/** Whitespace of any kind (NBSP, U+3000 and the rest of \s) or a zero-width character at either end. */
const SURROUNDED = /^[\s\u200b-\u200d\u2060]|[\s\u200b-\u200d\u2060]$/;

/**
 * A declared identity (monitor label, group name, alert subject_init) that starts or ends with
 * whitespace: refused, as it looks like another one on every screen. References (previous labels,
 * group members, an alert's monitor) may name a live resource labelled so.
 */
function checkSurrounding(cx: Ctx, what: string, value: string, where: () => SourceRef): void {
  if (!SURROUNDED.test(value)) return;
  const kind = what.startsWith('monitor') ? 'labels' : what.startsWith('group') ? 'group names' : 'subjects';
  const fix = what.startsWith('monitor')
    ? 'to rename a live monitor labelled so, put that label in previous_labels'
    : what.startsWith('group')
      ? 'to rename a live group named so, put that name in previous_names'
      : 'to rename a live alert with that subject, put it in previous_subjects';
  const it = what.startsWith('alert') ? 'the alert' : what.startsWith('group') ? 'the group' : 'the monitor';
  error(cx, where(), `${what} ${show(value)} starts or ends with whitespace: ${kind} are matched exactly, so it would not name ${it} it looks like; remove it (${fix})`);
}

export function checkSemantics(r: Resolved): Diagnostic[] {
  const cx: Ctx = { out: [], globs: r.settings.ignore, labels: new Map(), sharedLabels: new Set() };
  for (let ai = 0; ai < r.alerts.length; ai++) cx.sharedLabels.add(r.alerts[ai]!.monitor);
  checkMonitors(cx, r.monitors);
  const previousLabels = checkRenames(
    cx,
    r.monitors,
    cx.labels,
    { noun: 'monitor', field: 'label', list: 'previous_labels' },
    (m) => m.raw.label,
    (m) => m.raw.previous_labels,
    labelAt,
  );
  checkTopLevelAlerts(cx, r.alerts, previousLabels);
  checkAlertSubjects(cx, r);
  const groupNames = checkGroups(cx, r.groups, previousLabels);
  checkRenames(
    cx,
    r.groups,
    groupNames,
    { noun: 'group', field: 'name', list: 'previous_names' },
    (g) => g.raw.name,
    (g) => g.raw.previous_names,
    nameAt,
  );
  checkServiceLevels(r.files, cx.out);
  return cx.out;
}

/**
 * Monitors: labels unique, not ignored, required fields present after defaults, valid time zones.
 * Fills cx.labels and adds the labels held by more than one monitor to cx.sharedLabels.
 */
function checkMonitors(cx: Ctx, monitors: readonly ResolvedMonitor[]): void {
  const labels = cx.labels;
  // Thousands of monitors share a handful of zones.
  const zoneProblems = new Map<string, string | undefined>();
  // Indexed loops: a first run is mostly unoptimised code, where for-of allocates a result per step.
  for (let mi = 0; mi < monitors.length; mi++) {
    const m = monitors[mi]!;
    const label = m.raw.label;
    const first = labels.get(label);
    if (first) {
      cx.sharedLabels.add(label);
      const here = labelAt(m);
      error(cx, here, `monitor label ${JSON.stringify(label)} is already defined at ${describeRef(labelAt(first), here.file)}`);
    } else labels.set(label, m);
    checkSurrounding(cx, 'monitor label', label, () => labelAt(m));
    const glob = ignored(cx, label);
    if (glob) error(cx, labelAt(m), `monitor ${JSON.stringify(label)} matches ${ignoreNote(glob)}: monsync never touches ignored monitors; rename it or narrow the glob`);
    const values = m.values;
    if (values.ip_address === undefined || values.test_account === undefined || values.timer === undefined || values.time_zone === undefined) {
      const missing = REQUIRED_MONITOR_FIELDS.filter((f) => values[f] === undefined);
      const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} or ${missing[missing.length - 1]}`;
      error(cx, at(m.ref), `monitor ${JSON.stringify(label)} has no ${list}: set ${missing.length === 1 ? 'it' : 'them'} here${m.template !== undefined ? `, in template ${JSON.stringify(m.template)}` : ''} or in defaults.monitor`);
    }
    // What the service refuses that the schema lets through; a merged value has an origin: the
    // monitor's own field or the default's (a bad default is reported once, see load.ts).
    const ip = values.ip_address;
    const ipProblem = ip === undefined ? undefined : deliveryTargetProblem(ip);
    if (ipProblem) fieldError(cx, m, m.origin('ip_address')!, ipProblem);
    const account = values.test_account;
    const accountProblem = account === undefined ? undefined : testAccountProblem(account);
    if (accountProblem) fieldError(cx, m, m.origin('test_account')!, accountProblem);
    const tz = values.time_zone;
    if (tz !== undefined) {
      let problem = zoneProblems.get(tz);
      if (problem === undefined && !zoneProblems.has(tz)) zoneProblems.set(tz, (problem = timeZoneProblem(tz)));
      // A merged value has an origin: the monitor's own field or the default's.
      if (problem) fieldError(cx, m, m.origin('time_zone')!, problem);
    }
  }
}

/**
 * Renames of monitors (`previous_labels`) or groups (`previous_names`): a previous identity must
 * not be ignored, nor a current one, nor claimed twice. Returns who claims each previous identity.
 */
function checkRenames<T extends { ref: Ref }>(
  cx: Ctx,
  items: readonly T[],
  current: ReadonlyMap<string, T>,
  what: { noun: 'monitor' | 'group'; field: 'label' | 'name'; list: 'previous_labels' | 'previous_names' },
  identity: (item: T) => string,
  previousOf: (item: T) => readonly string[] | undefined,
  identityAt: (item: T) => SourceRef,
): Map<string, { owner: string; at: SourceRef }> {
  const claims = new Map<string, { owner: string; at: SourceRef }>();
  for (let n = 0; n < items.length; n++) {
    const item = items[n]!;
    const previous = previousOf(item);
    if (previous === undefined) continue;
    const own = identity(item);
    for (let i = 0; i < previous.length; i++) {
      const prev = previous[i]!;
      const here = at(item.ref, [what.list, i]);
      const said = `previous ${what.field} ${JSON.stringify(prev)}`;
      const glob = ignored(cx, prev);
      if (glob) {
        error(cx, here, `${said} matches ${ignoreNote(glob)}: monsync does not read ignored ${what.noun}s, so it cannot rename one`);
        continue;
      }
      if (prev === own) {
        warn(cx, here, `${said} is the ${what.noun}'s current ${what.field}; remove it`);
        continue;
      }
      const holder = current.get(prev);
      if (holder) {
        error(cx, here, `${said} is the ${what.field} of another ${what.noun} defined at ${describeRef(identityAt(holder), here.file)}`);
        continue;
      }
      const claimed = claims.get(prev);
      if (claimed && claimed.owner !== own) {
        error(cx, here, `${said} is also claimed by ${what.noun} ${JSON.stringify(claimed.owner)} at ${describeRef(claimed.at, here.file)}`);
        continue;
      }
      claims.set(prev, { owner: own, at: here });
    }
  }
  return claims;
}

/** Top-level alerts are for monitors this configuration does not manage. */
function checkTopLevelAlerts(
  cx: Ctx,
  alerts: readonly ResolvedAlert[],
  previousLabels: ReadonlyMap<string, { owner: string; at: SourceRef }>,
): void {
  for (const a of alerts) {
    const managed = cx.labels.get(a.monitor);
    if (managed) {
      const here = at(a.monitorRef);
      error(cx, here, `monitor ${JSON.stringify(a.monitor)} is managed in this configuration (at ${describeRef(labelAt(managed), here.file)}): put this alert under its "alerts:"`);
      continue;
    }
    const renamed = previousLabels.get(a.monitor);
    if (renamed) {
      error(cx, at(a.monitorRef), `${JSON.stringify(a.monitor)} is a previous label of monitor ${JSON.stringify(renamed.owner)}, which this configuration manages: put this alert under its "alerts:"`);
      continue;
    }
    const glob = ignored(cx, a.monitor);
    if (glob) error(cx, at(a.monitorRef), `monitor ${JSON.stringify(a.monitor)} matches ${ignoreNote(glob)}: monsync never touches ignored monitors or their alerts`);
  }
}

// Alerts: subject_init identifies an alert on its monitor; an SMTP monitor's alert needs a timeout. Alerts are
// taken monitor by monitor, then the top-level ones.
// The alerts on a label held by one monitor and named by no top-level alert are all that
// monitor's: the first with a subject is found among them, in order. Only the alerts on shared
// labels go into a map, by label and subject (a key string per alert of a large configuration
// cost more than the whole check).
type Subjects = Map<string, ResolvedAlert>;

const subjectKey = (monitor: string, subject: string) => `${monitor}\u0000${subject}`;

/** The monitor holding `label` alone, if one does and no top-level alert names it. */
function soleOwner(cx: Ctx, label: string): ResolvedMonitor | undefined {
  return cx.sharedLabels.has(label) ? undefined : cx.labels.get(label);
}

/** The first alert on `monitor` (before `before`) whose subject_init is `subject`; `owner` is soleOwner(monitor). */
function subjectOwner(
  subjects: Subjects,
  monitor: string,
  subject: string,
  owner: ResolvedMonitor | undefined,
  before?: ResolvedAlert,
): ResolvedAlert | undefined {
  if (!owner) return subjects.get(subjectKey(monitor, subject));
  for (let ai = 0; ai < owner.alerts.length; ai++) {
    const a = owner.alerts[ai]!;
    if (a === before) return undefined;
    if (a.raw.subject_init === subject) return a;
  }
  return undefined;
}

/** `topLevel`: an alert under top-level `alerts:`, whose monitor's type only the account knows (plan checks its timeout). */
function checkAlert(cx: Ctx, subjects: Subjects, a: ResolvedAlert, owner: ResolvedMonitor | undefined, topLevel = false): void {
  checkSurrounding(cx, 'alert subject_init', a.raw.subject_init, () => subjectAt(a));
  const first = subjectOwner(subjects, a.monitor, a.raw.subject_init, owner, a);
  if (first) {
    const here = subjectAt(a);
    error(cx, here, `monitor ${JSON.stringify(a.monitor)} already has an alert with subject_init ${JSON.stringify(a.raw.subject_init)} (at ${describeRef(subjectAt(first), here.file)}${first.fromSet ? `, from alert set ${JSON.stringify(first.fromSet.name)}` : ''}); subject_init identifies an alert on its monitor${setNote(a, here.file)}`);
  } else if (!owner) subjects.set(subjectKey(a.monitor, a.raw.subject_init), a);
  // Alerts of SMTP monitors need a timeout; the service accepts other monitors' alerts without one.
  if (a.desired.timeout === null && !topLevel) {
    const where = at(a.ref);
    error(cx, where, `alert ${JSON.stringify(a.raw.subject_init)} on monitor ${JSON.stringify(a.monitor)} has no timeout: set it here or in defaults.alert${setNote(a, where.file)}`);
  }
}

/** Subjects unique per monitor, timeouts known, then renamed alerts (previous_subjects), in the same order. */
function checkAlertSubjects(cx: Ctx, r: Resolved): void {
  const subjects: Subjects = new Map();
  const monitors = r.monitors;
  for (let mi = 0; mi < monitors.length; mi++) {
    const m = monitors[mi]!;
    // Not shared: m is the one monitor with its label.
    const owner = cx.sharedLabels.has(m.raw.label) ? undefined : m;
    for (let ai = 0; ai < m.alerts.length; ai++) checkAlert(cx, subjects, m.alerts[ai]!, owner);
  }
  // Their labels are shared by construction.
  for (let ai = 0; ai < r.alerts.length; ai++) checkAlert(cx, subjects, r.alerts[ai]!, undefined, true);
  // Renamed alerts, in the same order.
  const renamed: ResolvedAlert[] = [];
  for (let mi = 0; mi < monitors.length; mi++) {
    const alerts = monitors[mi]!.alerts;
    for (let ai = 0; ai < alerts.length; ai++) if (alerts[ai]!.raw.previous_subjects !== undefined) renamed.push(alerts[ai]!);
  }
  for (let ai = 0; ai < r.alerts.length; ai++) if (r.alerts[ai]!.raw.previous_subjects !== undefined) renamed.push(r.alerts[ai]!);
  checkPreviousSubjects(cx, subjects, renamed);
}

/** A previous subject must not be the alert's own, another alert's on the monitor, or claimed twice. */
function checkPreviousSubjects(cx: Ctx, subjects: Subjects, renamed: readonly ResolvedAlert[]): void {
  const previousSubjects = new Map<string, { subject: string; at: SourceRef }>();
  for (let ai = 0; ai < renamed.length; ai++) {
    const a = renamed[ai]!;
    const previous = a.raw.previous_subjects!;
    for (let i = 0; i < previous.length; i++) {
      const prev = previous[i]!;
      const here = at(a.ref, ['previous_subjects', i]);
      if (prev === a.raw.subject_init) {
        warn(cx, here, `previous subject ${JSON.stringify(prev)} is the alert's current subject_init; remove it`);
        continue;
      }
      const current = subjectOwner(subjects, a.monitor, prev, soleOwner(cx, a.monitor));
      if (current) {
        error(cx, here, `previous subject ${JSON.stringify(prev)} is the subject_init of another alert on monitor ${JSON.stringify(a.monitor)} (at ${describeRef(subjectAt(current), here.file)})`);
        continue;
      }
      const k = subjectKey(a.monitor, prev);
      const claimed = previousSubjects.get(k);
      if (claimed && claimed.subject !== a.raw.subject_init) {
        error(cx, here, `previous subject ${JSON.stringify(prev)} is also claimed by the alert ${JSON.stringify(claimed.subject)} on monitor ${JSON.stringify(a.monitor)} at ${describeRef(claimed.at, here.file)}`);
        continue;
      }
      previousSubjects.set(k, { subject: a.raw.subject_init, at: here });
    }
  }
}

/**
 * Groups: names unique and not ignored, members not ignored or renamed (their renames are checked
 * after, by checkRenames). Returns the first group with each name.
 */
function checkGroups(
  cx: Ctx,
  groups: readonly ResolvedGroup[],
  previousLabels: ReadonlyMap<string, { owner: string; at: SourceRef }>,
): Map<string, ResolvedGroup> {
  const groupNames = new Map<string, ResolvedGroup>();
  for (const g of groups) {
    const first = groupNames.get(g.raw.name);
    if (first) {
      const here = nameAt(g);
      error(cx, here, `group name ${JSON.stringify(g.raw.name)} is already defined at ${describeRef(nameAt(first), here.file)}`);
    } else groupNames.set(g.raw.name, g);
    checkSurrounding(cx, 'group name', g.raw.name, () => nameAt(g));
    const glob = ignored(cx, g.raw.name);
    if (glob) error(cx, nameAt(g), `group ${JSON.stringify(g.raw.name)} matches ${ignoreNote(glob)}: monsync never touches ignored groups; rename it or narrow the glob`);
    const members = g.raw.monitors ?? [];
    for (let i = 0; i < members.length; i++) {
      const member = members[i]!;
      const renamed = previousLabels.size === 0 ? undefined : previousLabels.get(member);
      if (renamed && !cx.labels.has(member)) {
        error(cx, at(g.ref, ['monitors', i]), `${JSON.stringify(member)} is a previous label of monitor ${JSON.stringify(renamed.owner)}: list the monitor by its current label`);
        continue;
      }
      const memberGlob = ignored(cx, member);
      if (memberGlob) error(cx, at(g.ref, ['monitors', i]), `group member ${JSON.stringify(member)} matches ${ignoreNote(memberGlob)}: monsync does not read ignored monitors, so it cannot put them in groups`);
    }
  }
  return groupNames;
}
