/** Plans for the renderer tests, made by the real planner from small accounts and configurations. */
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import {
  NOW,
  TARGET,
  dAlert,
  dGroup,
  dMonitor,
  desiredState,
  dest,
  liveAlert,
  liveGroup,
  liveMonitor,
  liveState,
  topAlert,
} from '../plan/helpers.js';

/** Something of everything: creates with multi-line text, updates, a rename, an adoption, deletes, notes, warnings. */
export function richPlan(): Plan {
  const usOne = liveMonitor({ id: '48213', label: 'mx-us-1', timer: 10, ttl: 0, meta: { 'managed-by': 'mail-team', region: 'us' } });
  const bravo = liveMonitor({ id: '48377', label: 'mx-b' });
  const legacy = liveMonitor({ id: '40001', label: 'mx-legacy' });
  const handMade = liveMonitor({ id: '50001', label: 'mx-partner', meta: {} });
  const adopt = liveMonitor({ id: '50002', label: 'mx-eu-1', meta: { team: 'mail' }, use_tls: 'off' });
  const web = liveMonitor({ id: '60001', label: 'www', type: 'http', meta: {}, groups: null });
  const foreign = liveMonitor({ id: '70001', label: 'mx-sales', meta: { 'managed-by': 'sales-team' } });
  const ignored = liveMonitor({ id: '80001', label: 'test-probe' });
  const live = liveState({
    monitors: [usOne, bravo, legacy, handMade, adopt, web, foreign, ignored],
    alerts: [
      liveAlert({
        id: '99120',
        monitor: '48213',
        subject_init: 'mx-us-1 is DOWN',
        subject_term: 'mx-us-1 is UP',
        alert_destinations: ['d1'],
        message_init: 'The primary MX of example.com stopped answering.\nCall the on-call engineer.',
      }),
      liveAlert({ id: '99121', monitor: '48377', subject_init: 'mx-b down', subject_term: 'mx-b up', alert_destinations: ['d1'] }),
      liveAlert({ id: '99122', monitor: '40001', subject_init: 'legacy down' }),
      liveAlert({ id: '99123', monitor: '40001', subject_init: 'legacy slow' }),
      liveAlert({ id: '99124', monitor: '50001', subject_init: 'partner down' }),
      liveAlert({ id: '99125', monitor: '60001', subject_init: 'www down', alert_destinations: ['d1'], timeout: 5 }),
    ],
    groups: [liveGroup('310', 'production', [usOne, legacy]), liveGroup('311', 'sandbox', [handMade])],
    destinations: [dest('d1', 'ops-mail'), dest('d2', 'oncall-sms', { type: 'sms' }), dest('d3', 'night-voice', { type: 'voice', subscribed: false })],
  });
  const desired = desiredState({
    settings: { ignore: ['test-*'] },
    files: ['monitoring/mx.yaml', 'monitoring/groups.yaml'],
    monitors: [
      dMonitor(
        'mx-eu-3',
        {
          ip_address: 'mx3.example.eu',
          test_account: 'probe@example.eu',
          custom_body: 'This is a monitoring message.\nPlease do not reply.',
          meta: { region: 'eu' },
        },
        { alerts: [dAlert('mx-eu-3 is DOWN', { subject_term: 'mx-eu-3 is UP', alert_destinations: ['ops-mail', 'oncall-sms'], repeat: true })] },
      ),
      dMonitor('mx-us-1', { ttl: 600, meta: { region: 'us' } }, {
        alerts: [
          dAlert('mx-us-1 is DOWN', {
            subject_term: 'mx-us-1 is UP',
            alert_destinations: ['ops-mail'],
            message_init: 'The primary MX of example.com stopped answering.\nPage the on-call engineer via the SMS destination.\nRunbook: https://wiki.example.com/mx',
          }),
        ],
      }),
      dMonitor('mx-bravo', {}, {
        previous_labels: ['mx-b'],
        alerts: [dAlert('mx-bravo is DOWN', { subject_term: 'mx-b up', alert_destinations: ['ops-mail', 'night-voice'], previous_subjects: ['mx-b down'] })],
      }),
      dMonitor('mx-eu-1', { meta: { team: 'mail' } }),
    ],
    alerts: [topAlert('www', 'www down', { alert_destinations: ['ops-mail', 'oncall-sms'], timeout: 5 })],
    groups: [dGroup('production', ['mx-us-1', 'mx-eu-3', 'www']), dGroup('europe', ['mx-eu-1', 'mx-eu-3'])],
  });
  return diff(desired, live, { target: TARGET, now: NOW });
}

export function emptyPlan(): Plan {
  const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx' }), liveMonitor({ id: '2', label: 'hand', meta: {} })] });
  return diff(desiredState({ monitors: [dMonitor('mx')] }), live, { target: TARGET, now: NOW });
}

export function prunePlan(): Plan {
  const live = liveState({
    monitors: [liveMonitor({ id: '1', label: 'mx' }), liveMonitor({ id: '2', label: 'hand-made', meta: {} })],
    alerts: [liveAlert({ id: 'a', monitor: '2', subject_init: 'down' })],
    groups: [liveGroup('9', 'sandbox', ['2'])],
  });
  return diff(desiredState({ monitors: [dMonitor('mx')] }), live, { target: TARGET, now: NOW, prune: true });
}

export const HOSTILE = [
  'a|b',
  '`tick` ``double``',
  '<img src=x onerror=alert(1)>',
  '@octocat and #123',
  'line\nbreak',
  '```',
  '</details><script>x</script>',
  '**bold** _it_ ~~s~~ [link](http://evil.example) $x$ :tada:',
  '\u001b[31mred\u001b[0m',
  '\u202eevil\u2066',
  '\\| escaped pipe',
];

/** Every hostile label as a monitor (created) with a hostile alert, body and group. */
export function hostilePlan(): Plan {
  const live = liveState({
    monitors: [liveMonitor({ id: '1', label: HOSTILE[0]!, custom_body: 'x\n````\n</details>' })],
    groups: [liveGroup('g', HOSTILE[2]!, ['1'])],
    destinations: [dest('d1', HOSTILE[3]!)],
  });
  const desired = desiredState({
    monitors: HOSTILE.map((label, i) =>
      dMonitor(label, { custom_body: `${HOSTILE.join('\n')}\n${'`'.repeat(7)}`, custom_subject: label, meta: { [label]: label } }, {
        alerts: [dAlert(`${label} is DOWN`, { alert_destinations: [HOSTILE[3]!], message_init: HOSTILE[(i + 1) % HOSTILE.length]! })],
      }),
    ),
    groups: [dGroup(HOSTILE[2]!, HOSTILE.slice(1)), dGroup(HOSTILE[6]!, [HOSTILE[0]!])],
  });
  return diff(desired, live, { target: TARGET, now: NOW });
}
