/** Output seam for CLI commands, so tests can capture what a command prints. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export function defaultIo(): CliIo {
  return {
    out: (l) => process.stdout.write(l + '\n'),
    err: (l) => process.stderr.write(l + '\n'),
  };
}

/** Minimal flag parser: --flag value, --flag=value, --bool, positionals. */
export function parseArgs(argv: string[], spec: { booleans?: string[]; strings?: string[] }) {
  const booleans = new Set(spec.booleans ?? []);
  const strings = new Set(spec.strings ?? []);
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const errors: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (booleans.has(name)) { flags[name] = true; continue; }
      if (strings.has(name)) {
        const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) errors.push(`--${name} needs a value`); else flags[name] = v;
        continue;
      }
      errors.push(`unknown option --${name}`);
    } else positionals.push(a);
  }
  return { flags, positionals, errors };
}
