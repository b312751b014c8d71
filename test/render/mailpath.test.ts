/** `monsync test`'s report and `apply --verify`'s lines: golden files, and hostile server text kept inert. */
import { describe, expect, it } from 'vitest';
import type { MailPathReport, MonitorPath } from '../../src/mailpath/test-paths.js';
import { SENDING_ADDRESS_LIST, SERVICE_SENDING_ADDRESSES } from '../../src/mailpath/sending-addresses.js';
import { renderMailPathMarkdown, renderMailPathText, renderVerifyLine, renderVerifySummary } from '../../src/render/mailpath.js';
import { noneLeftOut } from '../../src/api/data-rules.js';

const base = { test_account: 'probe@example.com', port: 25, family: 4 as const, use_tls: 'auto' as const };

function report(monitors: MonitorPath[], inconclusive = false): MailPathReport {
  const counts = { pass: 0, warning: 0, fail: 0, inconclusive: 0 };
  for (const m of monitors) counts[m.outcome]++;
  return { monitors, inconclusive, ports: [25], counts, elapsedMs: 1234 };
}

const passing: MonitorPath = {
  ...base,
  label: 'mx-eu-1',
  target: 'mail.example.com',
  use_tls: 'on',
  outcome: 'pass',
  steps: [
    { step: 'dns', status: 'pass', host: 'mail.example.com', text: 'mail.example.com A 192.0.2.10', ms: 4 },
    { step: 'connect', status: 'pass', host: 'mail.example.com', text: '192.0.2.10:25', ms: 21 },
    { step: 'greeting', status: 'pass', host: 'mail.example.com', text: '220 mail.example.com ESMTP', ms: 40 },
    { step: 'ehlo', status: 'pass', host: 'mail.example.com', text: 'PIPELINING, SIZE 10240000, STARTTLS', ms: 20 },
    { step: 'tls', status: 'pass', host: 'mail.example.com', text: 'TLSv1.3; certificate CN=mail.example.com issued by CN=R11; expires in 61 days (2027-01-25); name mail.example.com matches; trusted', ms: 35 },
    { step: 'mail', status: 'pass', host: 'mail.example.com', text: '250 OK', ms: 20 },
    { step: 'rcpt', status: 'pass', host: 'mail.example.com', text: '<probe@example.com>: 250 Accepted', ms: 22 },
  ],
  findings: [],
};

const refused: MonitorPath = {
  ...base,
  label: 'mx-us-1',
  target: 'mx',
  outcome: 'fail',
  steps: [
    { step: 'mx', status: 'pass', text: 'MX example.com: 10 mx1.example.com', ms: 3 },
    { step: 'rcpt', status: 'fail', host: 'mx1.example.com', text: '<probe@example.com>: 550 5.1.1 user unknown' },
  ],
  findings: [
    { check: 'monitor/recipient-refused', severity: 'error', message: 'mx1.example.com (192.0.2.20):25 refused RCPT TO:<probe@example.com>: 550 5.1.1 user unknown', file: 'monitoring/us.yaml', line: 4, column: 5, kind: 'monitor', key: 'mx-us-1' },
  ],
};

const blocked: MonitorPath = {
  ...base,
  label: 'relay-ams',
  target: 'relay.example.com',
  outcome: 'inconclusive',
  steps: [
    { step: 'dns', status: 'pass', host: 'relay.example.com', text: 'relay.example.com A 192.0.2.30', ms: 2 },
    { step: 'connect', status: 'unreachable', host: 'relay.example.com', text: '192.0.2.30:25: no connection within 10 s (no server could be reached from here)' },
  ],
  findings: [],
};

describe('monsync test report', () => {
  it('as text (golden)', async () => {
    await expect(renderMailPathText(report([passing, refused]), { where: 'monitoring/' })).toMatchFileSnapshot('./__golden__/mailpath.txt');
  });

  it('as Markdown (golden)', async () => {
    await expect(renderMailPathMarkdown(report([passing, refused]), { where: 'monitoring/' })).toMatchFileSnapshot('./__golden__/mailpath.md');
  });

  it('says inconclusive in both, and that DNS findings still count', () => {
    const r = report([blocked], true);
    const line = 'inconclusive: this machine cannot reach port 25 (commonly blocked on CI runners); run `monsync test` where mail can be sent';
    expect(renderMailPathText(r)).toContain(`${line}\nWhat DNS found still counts.`);
    expect(renderMailPathMarkdown(r)).toContain('> ❔ inconclusive&#58; this machine cannot reach port 25');
  });

  it('prints the service sending addresses, all of them, from their one place', () => {
    expect(SENDING_ADDRESS_LIST).toEqual([...SERVICE_SENDING_ADDRESSES.ipv4, ...SERVICE_SENDING_ADDRESSES.ipv6]);
    expect(renderMailPathText(report([]))).toContain(SENDING_ADDRESS_LIST.join(', '));
  });

  it('keeps what a mail server said inert: no terminal control, no Markdown', () => {
    const hostile: MonitorPath = { ...refused, steps: [{ step: 'greeting', status: 'fail', text: '554 \u001b[2J gone | **bold** @team' }], findings: [] };
    expect(renderMailPathText(report([hostile]))).toContain('554 \\u001b[2J gone');
    const md = renderMailPathMarkdown(report([hostile]));
    expect(md).not.toContain('\u001b');
    expect(md).toContain('554 \\u001b[2J gone | **bold** @team');
  });
});

describe('apply --verify lines', () => {
  const t = { id: '1', label: 'mx-eu-1', timer: 5, ttl: 300, testStarted: 1, leftOut: noneLeftOut() };
  it('say what became of each first round trip', () => {
    expect(renderVerifyLine({ ...t, status: 'completed', seconds: 12 })).toBe('  ✓ mx-eu-1: round trip completed in 12 s');
    expect(renderVerifyLine({ ...t, status: 'no-reply', waitedSeconds: 660, error: null })).toBe("  ✗ mx-eu-1: no reply within 660 s: is the test account's forwarder set up?");
    expect(renderVerifyLine({ ...t, status: 'failed', error: '550 5.1.1 test account mailbox unavailable' })).toBe('  ✗ mx-eu-1: the first test failed: 550 5.1.1 test account mailbox unavailable');
    expect(renderVerifySummary([{ ...t, status: 'completed', seconds: 3 }])).toBe('Verified: 1 round trip completed.');
  });

  it('say when a monitor was deleted while it was verified, and what the data rules left out of the answer', () => {
    expect(renderVerifyLine({ ...t, testStarted: null, status: 'deleted' })).toBe('  ! mx-eu-1: deleted while it was being verified (the service no longer has it): not verified');
    expect(renderVerifySummary([{ ...t, status: 'completed', seconds: 3 }, { ...t, status: 'deleted' }])).toBe('Verify failed: 1 of 2 monitors did not complete a round trip.');
    expect(renderVerifyLine({ ...t, status: 'completed', seconds: 4, leftOut: { repeated: 2, outOfDomain: 0, outsidePeriod: 0, contradicting: 0 } })).toBe(
      '  ✓ mx-eu-1: round trip completed in 4 s (Left out of every figure: 2 repeated data items (each test counted once))',
    );
  });
});
