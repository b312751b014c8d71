/**
 * Values the service refuses that the schema lets through: delivery targets (`ip_address`) and the
 * limits of e-mail addresses (`test_account`) beyond the schema's `email` format. The rules are the
 * service's as the emulator applies them (src/emulator/validate.ts, `isDeliveryTarget`, `isEmail`);
 * test/config/service-values.test.ts holds the two to the same answers, so a configuration that
 * `validate` accepts is not refused by the service half-way through an apply.
 *
 * Every monitor of a large configuration is checked: the answers come from one regular expression
 * each (compiled to native code by the engine, where a loop over the characters runs interpreted
 * in a cold process), and a reason is worked out only for a value that fails.
 */
import { isIP } from 'node:net';
import { show } from './diagnostics.js';

/** One part of a host name: 1 to 63 letters, digits and inner dashes. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** The part of an e-mail address before "@": these characters, dots only between others. */
const ATOMS = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*";
/** 253 characters in all, an optional final dot. */
const HOST_NAME = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)*${LABEL}\\.?$`);
const ONE_LABEL = new RegExp(`^${LABEL}$`);
const LOCAL_PART = new RegExp(`^${ATOMS}$`);
/** At most 64 characters before the "@"; a domain of two parts or more. */
const EMAIL = new RegExp(`^(?=[^@]{1,64}@)${ATOMS}@(?=.{1,253}$)(?:${LABEL}\\.)+${LABEL}$`);
/** A last part of digits only: a mistyped IP address (192.0.2.999), not a host name. */
const NUMERIC_LAST = /(?:^|\.)\d+\.?$/;

const isHostName = (name: string): boolean => HOST_NAME.test(name) && !NUMERIC_LAST.test(name);

/** Why isHostName refuses `name`; `subject` names it in the reason. */
function hostNameReason(name: string, subject: string): string {
  if (name.length === 0) return `${subject} is empty`;
  if (name.length > 253) return `${subject} has ${name.length} characters, at most 253`;
  const labels = (name.endsWith('.') ? name.slice(0, -1) : name).split('.');
  for (const label of labels) {
    if (label === '') return `${subject} has an empty part (two dots in a row, or a dot at either end)`;
    if (label.length > 63) return `the part ${show(label)} has ${label.length} characters, at most 63`;
    if (!ONE_LABEL.test(label)) {
      return `the part ${show(label)} may hold only letters, digits and "-", and not start or end with "-"`;
    }
  }
  // A numeric last part is a mistyped IP address (192.0.2.999), not a host name.
  return `the last part of ${subject} is a number`;
}

/** Undefined when the service accepts `value` as an `ip_address`; otherwise the message. */
export function deliveryTargetProblem(value: string): string | undefined {
  if (value === 'mx' || value === 'mx:failover' || isHostName(value) || isIP(value) !== 0) return undefined;
  return `ip_address must be a host name, an IP address, mx or mx:failover (got the text ${show(value)}): ${hostNameReason(value, 'the name')}`;
}

/**
 * Undefined when the service accepts `value` as a `test_account`; otherwise the message. After
 * the schema's `email` format only lengths and the domain's last part are left to find.
 */
export function testAccountProblem(value: string): string | undefined {
  if (EMAIL.test(value) && !NUMERIC_LAST.test(value)) return undefined;
  const at = value.lastIndexOf('@');
  const local = value.slice(0, Math.max(at, 0));
  const domain = value.slice(at + 1);
  let why: string;
  if (at <= 0) why = 'it needs a name, "@" and a domain';
  else if (local.length > 64) why = `the part before "@" has ${local.length} characters, at most 64`;
  else if (!LOCAL_PART.test(local)) why = 'the part before "@" may hold only letters, digits, single dots between them and !#$%&\'*+/=?^_`{|}~-';
  else if (!domain.includes('.') || domain.endsWith('.')) why = 'the part after "@" must be a domain name such as example.com';
  else why = hostNameReason(domain, 'the domain');
  return `test_account must be an e-mail address such as probe@example.com (got the text ${show(value)}): ${why}`;
}
