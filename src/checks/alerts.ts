/**
 * Checks of alerts: is anyone told, is the message told apart, and does the timeout fit the
 * monitor's timer. The timing rule is the service's (monitoring-api.md section 3 rule 2,
 * service-notes.md "Alerts"): every minute it compares the time since the monitor's last successful
 * reply with the alert's `timeout` (minutes); past it, the alert triggers. A successful reply
 * arrives once per `timer` minutes at best, so the timeout has to leave room for a whole interval.
 */
import type { DesiredAlert, DesiredMonitor, DesiredState } from '../model/desired.js';
import { only, type Account } from './account.js';
import { alertName, allAlerts, minutes, q } from './items.js';
import type { Hit } from './types.js';

const alertHit = (alert: DesiredAlert, monitor: DesiredMonitor | undefined, message: string): Hit => ({
  subject: monitor ? { kind: 'alert', alert, monitor } : { kind: 'alert', alert },
  message,
});

/** alert/missing: a managed monitor without any alert. */
export function missingAlerts(desired: DesiredState): Hit[] {
  const out: Hit[] = [];
  // Top-level alerts never name a managed monitor (the loader refuses that), so a managed
  // monitor's alerts are all under it.
  for (const monitor of desired.monitors) {
    if (monitor.alerts.length === 0) {
      out.push({ subject: { kind: 'monitor', monitor }, message: `monitor ${q(monitor.label)} has no alert; nobody is told when it fails` });
    }
  }
  return out;
}

/** alert/unreachable, offline part: an alert naming no destination at all. */
export function alertsWithoutDestination(desired: DesiredState): Hit[] {
  const out: Hit[] = [];
  for (const { alert, monitor } of allAlerts(desired)) {
    if (alert.alert_destinations.length === 0) {
      out.push(alertHit(alert, monitor, `${alertName(alert)} has no destination; when it triggers, nobody is told`));
    }
  }
  return out;
}

/**
 * alert/unreachable, account part: every destination the alert names is unsubscribed. Labels that
 * name no destination, or several, are left to the plan, which stops on them.
 */
export function alertsOnlyToUnsubscribed(desired: DesiredState, account: Account): Hit[] {
  const out: Hit[] = [];
  for (const { alert, monitor } of allAlerts(desired)) {
    const labels = [...new Set(alert.alert_destinations)];
    if (labels.length === 0) continue;
    const destinations = labels.map((label) => only(account.destinationsByLabel.get(label)));
    if (destinations.every((d) => d !== undefined && !d.subscribed)) {
      const names = labels.map(q).join(', ');
      const them = labels.length === 1 ? 'it is' : 'they are all';
      out.push(alertHit(alert, monitor, `${alertName(alert)} sends only to ${names}, and ${them} unsubscribed: its messages are recorded, not delivered`));
    }
  }
  return out;
}

/** The timer of the monitor an alert is on: declared (managed monitors), or read (the others). */
type TimerOf = (alert: DesiredAlert, monitor: DesiredMonitor | undefined) => number | undefined;

const declaredTimer: TimerOf = (_alert, monitor) => monitor?.spec.timer;

function liveTimer(account: Account): TimerOf {
  return (alert, monitor) => (monitor ? undefined : (only(account.monitorsByLabel.get(alert.monitor))?.timer ?? undefined));
}

function timeoutHits(desired: DesiredState, timerOf: TimerOf, test: (timeout: number, timer: number) => boolean, say: (timeout: number, timer: number) => string): Hit[] {
  const out: Hit[] = [];
  for (const { alert, monitor } of allAlerts(desired)) {
    const timer = timerOf(alert, monitor);
    if (timer === undefined || typeof alert.timeout !== 'number') continue;
    if (test(alert.timeout, timer)) out.push(alertHit(alert, monitor, `${alertName(alert)} ${say(alert.timeout, timer)}`));
  }
  return out;
}

const below = (timeout: number, timer: number) => timeout < timer;
const sayBelow = (timeout: number, timer: number) =>
  `has a timeout of ${minutes(timeout)}, shorter than the monitor's timer of ${minutes(timer)}: it triggers between two tests, every interval, though no test failed`;

/** alert/timeout-below-timer on alerts under managed monitors (their timer is declared). */
export const timeoutsBelowTimer = (desired: DesiredState): Hit[] => timeoutHits(desired, declaredTimer, below, sayBelow);
/** alert/timeout-below-timer on top-level alerts (their monitor's timer is in the account). */
export const timeoutsBelowLiveTimer = (desired: DesiredState, account: Account): Hit[] =>
  timeoutHits(desired, liveTimer(account), below, sayBelow);

const equal = (timeout: number, timer: number) => timeout === timer;
const sayEqual = (timeout: number) =>
  `has a timeout of ${minutes(timeout)}, the monitor's timer: any reply slower than the one before triggers it though no test failed; make it longer than the timer`;

/** alert/timeout-at-timer on alerts under managed monitors. */
export const timeoutsAtTimer = (desired: DesiredState): Hit[] => timeoutHits(desired, declaredTimer, equal, sayEqual);
/** alert/timeout-at-timer on top-level alerts. */
export const timeoutsAtLiveTimer = (desired: DesiredState, account: Account): Hit[] => timeoutHits(desired, liveTimer(account), equal, sayEqual);

/** alert/same-subjects: the trigger and reset messages carry one subject (and the reset is sent). */
export function sameSubjects(desired: DesiredState): Hit[] {
  const out: Hit[] = [];
  for (const { alert, monitor } of allAlerts(desired)) {
    if (alert.subject_term === alert.subject_init && alert.down_only !== true) {
      out.push(alertHit(alert, monitor, `${alertName(alert)} has the same subject_term: its down and up messages cannot be told apart`));
    }
  }
  return out;
}
