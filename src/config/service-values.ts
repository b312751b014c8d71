/**
 * Values the service refuses that the schema lets through: delivery targets (`ip_address`) and the
 * limits of e-mail addresses (`test_account`) beyond the schema's `email` format. The rules are the
 * service's as the emulator applies them (src/emulator/validate.ts, `isDeliveryTarget`, `isEmail`);
 * test/config/service-values.test.ts holds the two to the same answers, so a configuration that
 * `validate` accepts is not refused by the service half-way through an apply.
 */
import { isIP } from 'node:net';
import { show } from './diagnostics.js';

const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** Why `name` is not a host name the service accepts, or undefined; `subject` names it in the reason. */
function hostNameProblem(name: string, subject: string): string | undefined {
  if (name.length === 0) return `${subject} is empty`;
  if (name.length > 253) return `${subject} has ${name.length} characters, at most 253`;
  const labels = (name.endsWith('.') ? name.slice(0, -1) : name).split('.');
  for (const label of labels) {
    if (label === '') return `${subject} has an empty part (two dots in a row, or a dot at either end)`;
    if (label.length > 63) return `the part ${JSON.stringify(`${label.slice(0, 20)}...`)} has ${label.length} characters, at most 63`;
    if (!HOST_LABEL.test(label)) return `the part ${JSON.stringify(label)} may hold only letters, digits and "-", and not start or end with "-"`;
  }
  // A numeric last part is a mistyped IP address (192.0.2.999), not a host name.
  if (/^\d+$/.test(labels[labels.length - 1]!)) return `the last part of ${subject} is a number`;
  return undefined;
}

/** Undefined when the service accepts `value` as an `ip_address`; otherwise the message. */
export function deliveryTargetProblem(value: string): string | undefined {
  if (value === 'mx' || value === 'mx:failover' || isIP(value) !== 0) return undefined;
  const why = hostNameProblem(value, 'the name');
  return why && `ip_address must be a host name, an IP address, mx or mx:failover (got the text ${show(value)}): ${why}`;
}

/**
 * Undefined when the service accepts `value` as a `test_account`; otherwise the message. After
 * the schema's `email` format only lengths and the domain's last part are left to find.
 */
export function testAccountProblem(value: string): string | undefined {
  const at = value.lastIndexOf('@');
  const local = value.slice(0, Math.max(at, 0));
  const domain = value.slice(at + 1);
  let why: string | undefined;
  if (at <= 0) why = 'it needs a name, "@" and a domain';
  else if (local.length > 64) why = `the part before "@" has ${local.length} characters, at most 64`;
  else if (!EMAIL_LOCAL.test(local)) why = 'the part before "@" may hold only letters, digits, single dots between them and !#$%&\'*+/=?^_`{|}~-';
  else if (!domain.includes('.') || domain.endsWith('.')) why = 'the part after "@" must be a domain name such as example.com';
  else why = hostNameProblem(domain, 'the domain');
  return why && `test_account must be an e-mail address such as probe@example.com (got the text ${show(value)}): ${why}`;
}
