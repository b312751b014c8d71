/**
 * `monsync drill` output: the monitor's alerts, then a timeline of the messages the outage would
 * have sent, by destination label, and what the drill did to the emulator clock.
 */
import pc from 'picocolors';
import { formatDuration } from '../util/duration.js';
import type { DrillAlert, DrillRecipient, DrillReport } from '../ops/drill.js';
import { quoted, safe } from './ops-words.js';
import { plural } from '../util/plural.js';

type Colors = ReturnType<typeof pc.createColors>;

function who(r: DrillRecipient, withAddress: boolean): string {
  const name = r.label === null ? `destination ${safe(r.destination)}` : safe(r.label);
  if (!withAddress || r.type === null || r.address === null) return name;
  return `${name} (${safe(r.type)} ${safe(r.address)})`;
}

function alertLine(a: DrillAlert, c: Colors): string {
  const when = a.timeout === null ? 'when tests fail' : `after ${formatDuration(a.timeout * 60)} of failures`;
  const traits = [when, a.repeat ? 'repeats' : null, a.down_only ? 'down only (no recovery message)' : 'recovery message'].filter(Boolean).join(', ');
  const to = a.recipients.length === 0 ? c.yellow('no destinations') : a.recipients.map((r) => who(r, false) + (r.subscribed === false ? c.dim(' (not subscribed)') : '')).join(', ');
  const pausedNote = a.paused_seconds === null ? '' : c.yellow(`  [paused for ${formatDuration(a.paused_seconds)} more at the start]`);
  return `  ${quoted(a.subject_init)}  ${c.dim(traits)} -> ${to}${pausedNote}`;
}

export function renderDrillText(r: DrillReport, options: { color: boolean }): string {
  const c = pc.createColors(options.color);
  const label = safe(r.monitor.label);
  const every = r.monitor.timer === null ? '' : `, tests every ${formatDuration(r.monitor.timer * 60)}`;
  const lines: string[] = [
    `Drill: forced outage of ${c.bold(label)} (${safe(r.monitor.type)}${every}) for ${formatDuration(r.outage_minutes * 60)}, then ${formatDuration(r.recovery_minutes * 60)} of recovery.`,
    '',
  ];

  if (r.alerts.length === 0) {
    lines.push(c.yellow(`${label} has no alerts: an outage of it notifies nobody.`));
  } else {
    lines.push(`Alerts of ${label}:`, ...r.alerts.map((a) => alertLine(a, c)));
  }
  lines.push('');

  if (r.events.length === 0) {
    lines.push(c.yellow('No message would be sent.'));
    lines.push(...silenceReasons(r).map((s) => c.dim(`  ${s}`)));
  } else {
    lines.push('What would be sent (minutes after the outage began):');
    // "after 15m of failures" reads as 15 minutes of failed tests; the service counts from the last success.
    lines.push(c.dim("  (an alert fires once its timeout has passed since the monitor's last successful test, not since the first failed one)"));
    let endShown = false;
    const outageEnds = (): void => {
      if (!endShown) lines.push(c.dim(`  ${`+${r.outage_minutes}m`.padStart(6)}  ----  the outage ends`));
      endShown = true;
    };
    for (const e of r.events) {
      if (e.minute > r.outage_minutes) outageEnds();
      const kind = e.kind === 'down' ? c.red('DOWN') : c.green('UP  ');
      const sent = e.deliveries.filter((d) => d.delivered);
      const held = e.deliveries.filter((d) => !d.delivered);
      const to = sent.length === 0 ? c.yellow('nobody') : sent.map((d) => who(d, true)).join(', ');
      const heldNote = held.length === 0 ? '' : c.dim(`; not subscribed: ${held.map((d) => who(d, false)).join(', ')}`);
      const repeat = e.repeat ? c.dim(' (repeat)') : '';
      lines.push(`  ${`+${e.minute}m`.padStart(6)}  ${kind}  ${quoted(e.subject)}${repeat} -> ${to}${heldNote}`);
    }
    outageEnds();
    const downs = r.events.filter((e) => e.kind === 'down').length;
    const ups = r.events.length - downs;
    lines.push(c.dim(`  ${plural(downs, 'down message')}, ${plural(ups, 'recovery message')}.`));
  }

  if (!r.recovery_complete) {
    lines.push(
      '',
      c.yellow(`No recovery message ${formatDuration(r.recovery_minutes * 60)} after the outage ended, for an alert that had fired; the drill stopped looking there.`),
    );
  }

  if (r.unsubscribed.length > 0) {
    lines.push('');
    lines.push(
      `Not subscribed (their owners opted out; they receive nothing): ${r.unsubscribed
        .map((u) => `${who(u, true)}${u.missed > 0 ? ` — ${plural(u.missed, 'message')} not sent` : ''}`)
        .join(', ')}`,
    );
  }

  const moved = Math.round((r.end - r.start) / 60);
  lines.push('', c.dim(`The emulator clock moved forward by ${plural(moved, 'minute')}; it cannot be moved back.`));
  return `${lines.join('\n')}\n`;
}

function silenceReasons(r: DrillReport): string[] {
  if (r.alerts.length === 0) return [];
  const out: string[] = [];
  for (const a of r.alerts) {
    const s = quoted(a.subject_init);
    if (a.paused_seconds !== null) out.push(`${s} was paused at the start (${formatDuration(a.paused_seconds)} left).`);
    else if (a.timeout !== null && a.timeout > r.outage_minutes) {
      out.push(`${s} fires after ${formatDuration(a.timeout * 60)} of failures; the outage lasted ${formatDuration(r.outage_minutes * 60)}.`);
    } else if (a.recipients.length === 0) out.push(`${s} has no destinations.`);
  }
  return out;
}

/** What drill says on stderr as the outage starts: how far it moves the emulator's clock. */
export function renderDrillStart(s: { outageMinutes: number; recovery: { min: number; max: number } }, options: { color: boolean }): string {
  return pc
    .createColors(options.color)
    .dim(`Advancing the emulator clock minute by minute: ${s.outageMinutes} of outage, then ${s.recovery.min} to ${s.recovery.max} until the monitor has recovered…`);
}
