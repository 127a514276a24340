import { parseArgs as parseArgv } from 'node:util';

/** Output seam for CLI commands, so tests can capture what a command prints. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /**
   * Raw text for a status line rewritten in place (progress.ts: '\r', erase line, text): present only when
   * stderr is a terminal, so a pipe or a log file never gets it.
   */
  status?(text: string): void;
}

export function defaultIo(): CliIo {
  return {
    out: (l) => process.stdout.write(l + '\n'),
    err: (l) => process.stderr.write(l + '\n'),
    ...(process.stderr.isTTY ? { status: (t: string) => void process.stderr.write(t) } : {}),
  };
}

/**
 * The flag parser of every command, over node:util's parseArgs (tokens, non-strict, so the errors are
 * ours): --flag value, --flag=value, --bool, positionals, `--` ends the options. A word starting with a
 * single dash (`-45`) is a positional, as it always was here. Errors: unknown option, missing value.
 */
export function parseArgs(argv: string[], spec: { booleans?: string[]; strings?: string[] }) {
  const options: Record<string, { type: 'boolean' | 'string' }> = {};
  for (const b of spec.booleans ?? []) options[b] = { type: 'boolean' };
  for (const n of spec.strings ?? []) options[n] = { type: 'string' };
  const { tokens } = parseArgv({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const errors: string[] = [];
  let lastShort = -1;
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    else if (t.kind === 'option' && !t.rawName.startsWith('--')) {
      if (t.index !== lastShort) positionals.push(argv[t.index]!); // -x or -45: a word, not an option
      lastShort = t.index;
    } else if (t.kind === 'option') {
      const type = Object.hasOwn(options, t.name) ? options[t.name]!.type : undefined;
      if (type === 'boolean') flags[t.name] = true;
      else if (type === 'string') {
        if (t.value === undefined) errors.push(`--${t.name} needs a value`); else flags[t.name] = t.value;
      } else errors.push(`unknown option --${t.name}`);
    }
  }
  return { flags, positionals, errors };
}
