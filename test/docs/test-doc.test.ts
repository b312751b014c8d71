/** docs/test.md: every option of `monsync test` and `apply --verify` named, the sending addresses as the code has them, every live check. */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { registerCommands } from '../../src/cli/commands.js';
import { SENDING_ADDRESS_LIST } from '../../src/mailpath/sending-addresses.js';

const doc = readFileSync(new URL('../../docs/test.md', import.meta.url), 'utf8');

describe('docs/test.md', () => {
  it('names every option of monsync test, and apply --verify', () => {
    const program = new Command();
    registerCommands(program);
    const test = program.commands.find((c) => c.name() === 'test')!;
    const flags = test.options.map((o) => o.long!).filter((f) => f !== '--url' && f !== '--timeout');
    expect(flags.filter((f) => !doc.includes(f))).toEqual([]);
    expect(doc).toContain('`apply --verify`');
    expect(doc).toContain('MONSYNC_DNS_SERVERS');
    expect(doc).toContain('MONSYNC_VERIFY_POLL_MS');
  });

  it('gives the service sending addresses exactly as src/mailpath/sending-addresses.ts has them', () => {
    expect(doc.replace(/\s+/g, ' ')).toContain(SENDING_ADDRESS_LIST.join(', '));
  });

  it('shows a real run, inconclusive included, and the exit codes', () => {
    expect(doc).toContain('inconclusive: this machine cannot reach port');
    expect(doc).toMatch(/\| 3 \| inconclusive/);
    expect(CHECKS.filter((c) => 'live' in c).length).toBeGreaterThan(10);
  });
});
