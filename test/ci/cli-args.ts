/**
 * Finds the `monsync ...` invocations in CI shell scripts and checks them against the real command
 * table, so a recipe can never use a command or flag that does not exist.
 */
import { Command, type Option } from 'commander';
import { registerCommands } from '../../src/cli/commands.js';

export interface Invocation {
  /** The script line, for messages. */
  line: string;
  /** Arguments after `monsync`, as the shell would pass them. */
  argv: string[];
}

/** The program as main() builds it: the command table plus the global options. */
export function buildProgram(): Command {
  const program = new Command();
  program.name('monsync').option('--no-color', 'disable colour');
  registerCommands(program);
  return program;
}

/**
 * Splits a shell command line into words up to the first operator (redirection, pipe, `;`, `&&`).
 * Handles single and double quotes; variables are kept as written (`$X` is one word).
 */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      word += text.slice(i + 1, end < 0 ? text.length : end);
      inWord = true;
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        word += text[j];
        j++;
      }
      inWord = true;
      i = j + 1;
      continue;
    }
    if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    // Operators end the command: `>`, `2>`, `|`, `;`, `&`.
    if (/[<>|;&]/.test(ch) || (/[0-9]/.test(ch) && !inWord && /[<>]/.test(text[i + 1] ?? ''))) break;
    if (ch === '#' && !inWord) break;
    word += ch;
    inWord = true;
    i++;
  }
  if (inWord) words.push(word);
  return words;
}

/** Every `npx monsync ...`, `node node_modules/monsync/bin/monsync.js ...` or line-leading `monsync ...` in the scripts. */
export function findInvocations(scripts: string[]): Invocation[] {
  const out: Invocation[] = [];
  for (const script of scripts) {
    // Backslash-newline continues a command on the next line.
    const joined = script.replace(/\\\n/g, ' ');
    for (const line of joined.split('\n')) {
      const re =
        /(?:^|[\s;&|(])(?:npx\s+(?:--no-install\s+|--yes\s+|-y\s+)*monsync|node\s+node_modules\/monsync\/bin\/monsync\.js)\s+(.*)$|^\s*monsync\s+(.*)$/;
      const m = re.exec(line);
      if (!m) continue;
      out.push({ line: line.trim(), argv: shellWords(m[1] ?? m[2] ?? '') });
    }
  }
  return out;
}

function findOption(options: readonly Option[], flag: string): Option | undefined {
  return options.find((o) => o.long === flag || o.short === flag);
}

/** Problems with one invocation: unknown command, unknown flag, missing flag value, extra arguments. */
export function checkInvocation(program: Command, argv: string[]): string[] {
  const problems: string[] = [];
  const [name, ...rest] = argv;
  if (!name) return ['no command after `monsync`'];
  const cmd = program.commands.find((c) => c.name() === name || c.aliases().includes(name));
  if (!cmd) return [`unknown command "${name}" (known: ${program.commands.map((c) => c.name()).join(', ')})`];
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const tok = rest[i]!;
    if (tok === '--') {
      positional.push(...rest.slice(i + 1));
      break;
    }
    if (!tok.startsWith('-') || tok === '-') {
      positional.push(tok);
      continue;
    }
    const [flag, inline] = tok.includes('=') ? [tok.slice(0, tok.indexOf('=')), tok.slice(tok.indexOf('=') + 1)] : [tok, undefined];
    const opt = findOption(cmd.options, flag) ?? findOption(program.options, flag);
    if (!opt) {
      problems.push(`${name}: unknown option ${flag}`);
      continue;
    }
    if (opt.required) {
      let value = inline;
      if (value === undefined) {
        value = rest[i + 1];
        if (value === undefined || value.startsWith('-')) {
          problems.push(`${name}: option ${flag} needs a value`);
          continue;
        }
        i++;
      }
      if (opt.argChoices && !opt.argChoices.includes(value)) problems.push(`${name}: ${flag} ${value} is not one of ${opt.argChoices.join(', ')}`);
    } else if (opt.optional && inline === undefined && rest[i + 1] !== undefined && !rest[i + 1]!.startsWith('-')) {
      i++;
    } else if (!opt.required && !opt.optional && inline !== undefined) {
      problems.push(`${name}: option ${flag} takes no value`);
    }
  }
  const args = cmd.registeredArguments;
  const variadic = args.some((a) => a.variadic);
  if (!variadic && positional.length > args.length) {
    problems.push(`${name}: too many arguments (${positional.join(' ')}); it takes ${args.length}`);
  }
  const required = args.filter((a) => a.required).length;
  if (positional.length < required) problems.push(`${name}: missing arguments; it needs ${required}`);
  return problems;
}
