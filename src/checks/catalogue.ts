/**
 * The catalogue: every check monsync runs, one row each. A check has a stable name (what
 * `settings.checks`, `disable_checks` and findings use), a default severity, a one-line
 * explanation giving the reason from the service's documented rules (monitoring-api.md,
 * service-notes.md), and up to two pure functions: `config` needs the configuration alone (run by
 * validate, plan and apply), `account` needs the account as plan read it (run by plan and apply).
 * A `live` check has neither: it names what `monsync test` finds on a monitor's mail path
 * (src/mailpath), and only that command reports it, at the severity configured here; plan never
 * looks past the API.
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
  /** Found by `monsync test` on the mail path from this machine (DNS, SMTP, TLS), not by plan. */
  live?: 'mail path';
}

const LIVE = 'mail path' as const;

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
  // What `monsync test` finds on the mail path (src/mailpath/findings.ts makes the messages).
  {
    name: 'monitor/unresolvable',
    severity: 'error',
    explanation:
      "DNS has no address for the monitor's host (A, or AAAA with ipv6: true), no MX for the test account's domain (mx, mx:failover), or no address for an MX host: the service has nowhere to deliver the test message.",
    live: LIVE,
  },
  {
    name: 'monitor/null-mx',
    severity: 'error',
    explanation: "The test account's domain publishes a null MX (RFC 7505, `MX 0 .`): it accepts no mail, so no test message can be delivered.",
    live: LIVE,
  },
  {
    name: 'monitor/mx-not-hostname',
    severity: 'warning',
    explanation:
      'An MX record of the test account\'s domain names an IP address or an alias (CNAME) instead of a host name: RFC 5321 and RFC 2181 forbid both, and senders may skip such an MX.',
    live: LIVE,
  },
  {
    name: 'monitor/connection-failed',
    severity: 'error',
    explanation:
      "No TCP connection to the monitor's port (default 25) on the delivery host, while other mail servers could be reached from the same machine: the service cannot hand over the test message.",
    live: LIVE,
  },
  {
    name: 'monitor/smtp-failed',
    severity: 'error',
    explanation:
      'The mail server did not greet with 220, refused EHLO, or stopped answering within the step\'s time limit: the service\'s SMTP dialogue would fail the same way.',
    live: LIVE,
  },
  {
    name: 'monitor/starttls-missing',
    severity: 'error',
    explanation: 'The monitor has use_tls: on, which requires STARTTLS, and the server does not offer it: every test fails.',
    live: LIVE,
  },
  {
    name: 'monitor/tls-failed',
    severity: 'error',
    explanation: 'STARTTLS was offered (and would be used) but the TLS handshake failed: the service cannot deliver over it.',
    live: LIVE,
  },
  {
    name: 'monitor/certificate-expired',
    severity: 'error',
    explanation: "The mail server's certificate has expired: a sender that checks certificates refuses it, and it needs renewing now.",
    live: LIVE,
  },
  {
    name: 'monitor/certificate-expiring',
    severity: 'warning',
    explanation: "The mail server's certificate expires in under 14 days: renew it before the monitor starts failing for it.",
    live: LIVE,
  },
  {
    name: 'monitor/certificate-name-mismatch',
    severity: 'warning',
    explanation: "The mail server's certificate is not issued for the name the service connects to: a sender that checks names refuses it.",
    live: LIVE,
  },
  {
    name: 'monitor/certificate-untrusted',
    severity: 'warning',
    explanation: "The mail server's certificate chain does not lead to a certificate authority this machine trusts (self-signed, or an intermediate missing): a sender that checks certificates refuses it.",
    live: LIVE,
  },
  {
    name: 'monitor/sender-refused',
    severity: 'error',
    explanation: 'The mail server refused MAIL FROM with a 5xx reply: it would refuse the test message before its recipient is named.',
    live: LIVE,
  },
  {
    name: 'monitor/recipient-refused',
    severity: 'error',
    explanation: 'The mail server refused RCPT TO:<test_account> with a 5xx reply (such as 550 unknown user): every test message is refused.',
    live: LIVE,
  },
  {
    name: 'monitor/greylisted',
    severity: 'warning',
    explanation:
      'The mail server answered MAIL FROM or RCPT TO with a 4xx reply (greylisting, or a temporary failure): the service retries later, and with a short ttl a delayed message counts as a failed test.',
    live: LIVE,
  },
] as const satisfies readonly Check[];

export type CheckName = (typeof CHECKS)[number]['name'];

export const CHECK_NAMES: readonly CheckName[] = CHECKS.map((c) => c.name);

export function isCheckName(name: string): name is CheckName {
  return (CHECK_NAMES as readonly string[]).includes(name);
}

/** What a check needs, in words: for listings. */
export function needsOf(check: Check): 'configuration' | 'account' | 'configuration, account' | 'mail path' {
  if (check.live) return check.live;
  if (check.config && check.account) return 'configuration, account';
  return check.account ? 'account' : 'configuration';
}
