/**
 * The catalogue: every check monsync runs, one row each. A check has a stable name (what
 * `settings.checks`, `disable_checks` and findings use), a default severity, a one-line
 * explanation giving the reason from the service's documented rules (monitoring-api.md,
 * service-notes.md), and up to two pure functions: `config` needs the configuration alone (run by
 * validate, plan and apply), `account` needs the account as plan read it (run by plan and apply).
 *
 * schemas/monsync.schema.json lists the names again (for editors and "did you mean"): those parts
 * are generated from this table (config-schema.ts; test/config/schema-generated.test.ts).
 */
import type { DesiredState } from '../model/desired.js';
import type { Account } from './account.js';
import {
  alertsOnlyToUnsubscribed,
  alertsWithoutDestination,
  missingAlerts,
  sameSubjects,
  timeoutsAtLiveTimer,
  timeoutsAtTimer,
  timeoutsBelowLiveTimer,
  timeoutsBelowTimer,
} from './alerts.js';
import { emptyGroups, emptyGroupsInAccount } from './groups.js';
import { ipVersionMismatch, ttlBeyondTimer } from './monitors.js';
import type { FindingSeverity, Hit } from './types.js';

export interface Check {
  name: string;
  severity: FindingSeverity;
  explanation: string;
  config?: (desired: DesiredState) => Hit[];
  account?: (desired: DesiredState, account: Account) => Hit[];
}

export const CHECKS = [
  {
    name: 'alert/missing',
    severity: 'warning',
    explanation: 'A managed monitor has no alert: when its mail server fails, nobody is told.',
    config: missingAlerts,
  },
  {
    name: 'alert/unreachable',
    severity: 'warning',
    explanation:
      'An alert names no destination, or only destinations that are unsubscribed in the account: the service records its messages but delivers none.',
    config: alertsWithoutDestination,
    account: alertsOnlyToUnsubscribed,
  },
  {
    name: 'alert/timeout-below-timer',
    severity: 'warning',
    explanation:
      "An alert's timeout is shorter than its monitor's timer: the service triggers an alert once the time since the last successful reply passes timeout, so it triggers between two tests, every interval, though no test failed.",
    config: timeoutsBelowTimer,
    account: timeoutsBelowLiveTimer,
  },
  {
    name: 'alert/timeout-at-timer',
    severity: 'warning',
    explanation:
      "An alert's timeout equals its monitor's timer: the next reply is due one timer after the last one, so any reply slower than the one before passes timeout and triggers the alert, though no test failed.",
    config: timeoutsAtTimer,
    account: timeoutsAtLiveTimer,
  },
  {
    name: 'alert/same-subjects',
    severity: 'warning',
    explanation:
      "An alert's subject_term equals its subject_init and the reset is sent (no down_only): the down and up messages look alike, so a reader cannot tell a failure from a recovery.",
    config: sameSubjects,
  },
  {
    name: 'monitor/ttl-beyond-timer',
    severity: 'warning',
    explanation:
      "A monitor's ttl (seconds) is longer than its timer (minutes): a reply can count as a success after the next test has started, so a server that is overdue looks healthy for longer than one interval.",
    config: ttlBeyondTimer,
  },
  {
    name: 'monitor/ip-version-mismatch',
    severity: 'warning',
    explanation:
      "A monitor's ip_address is an IPv4 address while ipv6 is true (IPv6 only), or an IPv6 address while delivery is over IPv4 (ipv6 false, the default): the test message cannot be delivered, so every test fails.",
    config: ipVersionMismatch,
  },
  {
    name: 'group/empty',
    severity: 'warning',
    explanation:
      'A declared group has no members, listed or (when it does not list them) in the account: it groups nothing, usually because a monitors list went missing.',
    config: emptyGroups,
    account: emptyGroupsInAccount,
  },
] as const satisfies readonly Check[];

export type CheckName = (typeof CHECKS)[number]['name'];

export const CHECK_NAMES: readonly CheckName[] = CHECKS.map((c) => c.name);

export function isCheckName(name: string): name is CheckName {
  return (CHECK_NAMES as readonly string[]).includes(name);
}

/** What a check needs, in words: for listings. */
export function needsOf(check: Check): 'configuration' | 'account' | 'configuration, account' {
  if (check.config && check.account) return 'configuration, account';
  return check.account ? 'account' : 'configuration';
}
