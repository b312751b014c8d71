/**
 * Every command's --help (issue 18): an example or two that the command accepts, the environment
 * variables it reads, defaults as they are typed (`8`, not `"8"`), and one wording for the flags
 * and arguments commands share.
 */
import { spawn } from 'node:child_process';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/commands.js';
import { BIN, buildCli } from '../helpers/cli.js';

function program(): Command {
  const p = new Command().name('monsync').exitOverride();
  registerCommands(p);
  return p;
}

function helpOf(name: string): string {
  const cmd = program().commands.find((c) => c.name() === name)!;
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}

const commands = program().commands.map((c) => c.name());
/** Commands that talk to the service (they take --url). */
const online = program()
  .commands.filter((c) => c.options.some((o) => o.long === '--url'))
  .map((c) => c.name());

describe('--help', () => {
  it('covers the commands', () => {
    expect(commands.length).toBeGreaterThan(10);
    expect(online).toContain('plan');
  });

  it.each(commands)('of %s shows defaults as typed, never quoted', (name) => {
    expect(helpOf(name)).not.toMatch(/\(default: "/);
  });

  it.each(commands)('of %s gives examples the command accepts', (name) => {
    const help = helpOf(name);
    const examples = [...help.matchAll(/^ {2}\$ monsync (\S+)(.*?)(?: {2,}#.*)?$/gm)];
    expect(help).toContain('\nExamples:\n');
    expect(examples.filter((m) => m[1] === name).length).toBeGreaterThanOrEqual(1);
    for (const m of examples.filter((e) => e[1] === name)) {
      // Parsed by the command itself, action left out: an unknown option or a bad arity throws.
      const p = program();
      const cmd = p.commands.find((c) => c.name() === name)!;
      cmd.action(() => undefined);
      for (const c of [p, ...p.commands]) c.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
      const args = [...m[2]!.matchAll(/'[^']*'|"[^"]*"|\S+/g)].map((a) => a[0].replace(/^(['"])(.*)\1$/, '$2'));
      expect(() => p.parse(['node', 'monsync', name, ...args]), `monsync ${name}${m[2]}`).not.toThrow();
    }
  });

  it.each(online)('of %s names the environment variables it reads', (name) => {
    const help = helpOf(name);
    expect(help).toContain('\nEnvironment:\n');
    for (const v of ['MONSYNC_URL', 'MONSYNC_DEADLINE', 'MONSYNC_LOG']) expect(help).toContain(v);
    expect(help).toMatch(name === 'status' || name === 'doctor' ? /MONSYNC_CLIENT_ID/ : /MONSYNC_USERNAME/);
  });

  it.each(['validate', 'plan', 'apply', 'doctor'])('of %s says that ${VAR} in the configuration reads the environment', (name) => {
    expect(helpOf(name)).toContain('${VAR}');
  });

  it('describes a flag or argument that several commands share in the same words', () => {
    const words = new Map<string, Set<string>>();
    for (const cmd of program().commands) {
      for (const o of cmd.options) {
        const key = o.long!;
        if (!words.has(key)) words.set(key, new Set());
        words.get(key)!.add(o.description);
      }
    }
    // Options whose meaning depends on the command (what --all or --json covers, what --force forces).
    const perCommand = new Set(['--all', '--json', '--force', '--out', '--monitor', '--alert', '--format']);
    const differing = [...words].filter(([flag, d]) => d.size > 1 && !perCommand.has(flag)).map(([flag, d]) => `${flag}: ${[...d].join(' | ')}`);
    expect(differing).toEqual([]);
    const paths = new Set(
      program()
        .commands.filter((c) => ['validate', 'plan', 'apply'].includes(c.name()))
        .map((c) => c.registeredArguments[0]!.description),
    );
    expect(paths.size).toBe(1);
  });
});

describe('--help read by a pager that stops early', () => {
  // `monsync emulator --help | head -8` closed the pipe under a help text still being written:
  // Node's EPIPE stack trace came out on stderr.
  it('ends quietly, exit 0, without a stack trace', { timeout: 300_000 }, async () => {
    await buildCli();
    const child = spawn(process.execPath, [BIN, 'emulator', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
