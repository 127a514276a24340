/**
 * `lorecraft` entry point. Each command lives in commands/<name>.ts and
 * exports `run(argv, io)`; they are loaded lazily so `lorecraft --help` is fast.
 * Exit codes: 0 ok, 1 errors found, 2 usage.
 */
import type { CliIo } from './io.js';
import { defaultIo } from './io.js';

type Loader = () => Promise<{ run: (argv: string[], io: CliIo) => Promise<number> }>;

const COMMANDS: Record<string, { summary: string; load: Loader }> = {
  init: { summary: 'write lorecraft.yaml and schema.yaml (--template NAME | --infer)', load: () => import('./commands/init.js') },
  sync: { summary: 'bring the graph up to date with the files', load: () => import('./commands/sync.js') },
  query: { summary: 'query the graph (entity, relations, list, search, path, cypher, state, timeline, diff)', load: () => import('./commands/query.js') },
  validate: { summary: 'list problems grouped by file', load: () => import('./commands/validate.js') },
  edit: { summary: 'edit notes through the write-back (set, unset, link, unlink, rename, create, delete)', load: () => import('./commands/edit.js') },
  export: { summary: 'the world at a session for the GM or the players (site, lorebook, json, mermaid, dot)', load: () => import('./commands/export.js') },
  mcp: { summary: 'run the MCP server over stdio', load: () => import('./commands/mcp.js') },
  web: { summary: 'run the web shell (renderer + API over a local WebSocket)', load: () => import('./commands/web.js') },
  connect: { summary: 'add this install\'s MCP server for a vault to Claude Desktop (claude --vault DIR [--print])', load: () => import('./commands/connect.js') },
};

export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    io.out('usage: lorecraft <command> [options]\n\ncommands:');
    for (const [name, c] of Object.entries(COMMANDS)) io.out(`  ${name.padEnd(9)} ${c.summary}`);
    return cmd ? 0 : 2;
  }
  const entry = COMMANDS[cmd];
  if (!entry) {
    io.err(`lorecraft: unknown command '${cmd}' (try lorecraft --help)`);
    return 2;
  }
  const mod = await entry.load();
  return mod.run(rest, io);
}

const isEntry = process.argv[1] && /(?:cli[\\/]index\.ts|cli\.mjs|lorecraft(?:\.mjs)?)$/.test(process.argv[1]);
if (isEntry || process.env.LORECRAFT_CLI_MAIN === '1') {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (err: unknown) => {
      process.stderr.write(`lorecraft: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
