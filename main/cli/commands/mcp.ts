/**
 * `lorecraft mcp --vault DIR [--read-write] [--audience gm|players [--layer L] [--session N]] [--db DIR] [--config FILE] [--schema FILE] [--budget TOKENS] [--query-timeout-ms N]`
 * The MCP server over stdio (stdout is JSON-RPC only; messages go to stderr).
 * Relays to the running app when it already holds the vault (see main/mcp/bridge.ts).
 */
import type { CliIo } from '../io.js';
import { parseArgs } from '../io.js';

const USAGE = 'usage: lorecraft mcp --vault DIR [--read-write] [--audience gm|players [--layer L] [--session N]] [--db DIR] [--config FILE] [--schema FILE] [--budget TOKENS] [--query-timeout-ms N]';

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { flags, positionals, errors } = parseArgs(argv, {
    booleans: ['read-write', 'help'],
    strings: ['vault', 'db', 'config', 'schema', 'budget', 'query-timeout-ms', 'audience', 'layer', 'session'],
  });
  if (flags.help) { io.err(USAGE); return 0; }
  const vault = typeof flags.vault === 'string' ? flags.vault : positionals[0];
  if (errors.length || !vault || positionals.length > (flags.vault ? 0 : 1)) {
    for (const e of errors) io.err(`lorecraft mcp: ${e}`);
    if (!vault) io.err('lorecraft mcp: --vault DIR is required');
    io.err(USAGE);
    return 2;
  }
  let budgetTokens: number | undefined;
  if (typeof flags.budget === 'string') {
    budgetTokens = Number(flags.budget);
    if (!Number.isInteger(budgetTokens) || budgetTokens < 500) { io.err('lorecraft mcp: --budget must be an integer ≥ 500 (tokens)'); return 2; }
  }
  let queryTimeoutMs: number | undefined;
  if (typeof flags['query-timeout-ms'] === 'string') {
    queryTimeoutMs = Number(flags['query-timeout-ms']);
    if (!Number.isInteger(queryTimeoutMs) || queryTimeoutMs < 1) { io.err('lorecraft mcp: --query-timeout-ms must be a positive integer (milliseconds)'); return 2; }
  }
  const audience = flags.audience ?? 'gm';
  if (audience !== 'gm' && audience !== 'players') { io.err(`lorecraft mcp: --audience must be gm or players (got '${String(audience)}')`); io.err(USAGE); return 2; }
  let session: number | null = null;
  if (typeof flags.session === 'string') {
    session = Number(flags.session);
    if (!Number.isInteger(session)) { io.err(`lorecraft mcp: --session must be a whole number (got '${flags.session}')`); return 2; }
  }
  if ((flags.layer !== undefined || flags.session !== undefined) && audience !== 'players') { io.err('lorecraft mcp: --layer and --session go with --audience players'); return 2; }
  if (audience === 'players' && flags['read-write']) { io.err("lorecraft mcp: --read-write cannot go with --audience players (the players' server writes nothing)"); return 2; }
  const { runMcpStdio } = await import('../../mcp/stdio.js');
  try {
    return await runMcpStdio({
      vaultDir: vault,
      dbDir: typeof flags.db === 'string' ? flags.db : undefined,
      configPath: typeof flags.config === 'string' ? flags.config : undefined,
      schemaPath: typeof flags.schema === 'string' ? flags.schema : undefined,
      mode: flags['read-write'] ? 'read-write' : 'read',
      budgetTokens,
      queryTimeoutMs,
      ...(audience === 'players' ? { audience: { audience, ...(typeof flags.layer === 'string' ? { layer: flags.layer } : {}), session } } : {}),
      log: (l) => io.err(l),
    });
  } catch (e) {
    io.err(`lorecraft mcp: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
