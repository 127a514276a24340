/**
 * `lorecraft mcp` over stdio. stdout carries nothing but JSON-RPC; every
 * diagnostic goes to stderr.
 *
 * When another Lorecraft process (the app, the web shell, or a first
 * `lorecraft mcp`) already holds the vault's database, this process relays
 * its stdio to that process's bridge; otherwise it opens the vault itself,
 * watches the files, and serves its own bridge so later clients can relay.
 */
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CoreError } from '../domain/errors.js';
import { openCore } from '../core/index.js';
import { startMcpBridge } from './bridge.js';
import type { McpAudience, McpMode } from './context.js';
import { connectRelay } from './relay.js';
import { createMcpServer } from './server.js';
import { wireMcp } from './wire.js';

export interface StdioOptions {
  vaultDir: string;
  dbDir?: string;
  configPath?: string;
  schemaPath?: string;
  mode: McpMode;
  /** `--audience players [--layer L] [--session N]`: the players' view, read-only (relayed ones too) */
  audience?: McpAudience;
  budgetTokens?: number;
  /** query_graph's time limit (else LORECRAFT_QUERY_TIMEOUT_MS, else 5 s) */
  queryTimeoutMs?: number;
  stdin?: Readable;
  stdout?: Writable;
  log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Serve until stdin closes. Resolves with an exit code. */
export async function runMcpStdio(o: StdioOptions): Promise<number> {
  const log = o.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const stdin = o.stdin ?? process.stdin;
  const stdout = o.stdout ?? process.stdout;
  const bridgeDir = o.dbDir ?? join(o.vaultDir, '.lorecraft');

  const relay = async (): Promise<number | null> => {
    const r = await connectRelay(bridgeDir, o.mode, 3000, o.audience);
    if (!r) return null;
    log(`lorecraft mcp: the vault is open in process ${r.endpoint.pid}; relaying to it (${r.mode})`);
    await r.pipe(stdin, stdout);
    // The holder went away (or our client did): end, so the client sees the server exit and can restart it.
    log('lorecraft mcp: relay closed');
    stdin.pause();
    if (stdin === process.stdin) process.stdin.destroy();
    return 0;
  };

  try {
    const relayed = await relay();
    if (relayed !== null) return relayed;
  } catch (e) {
    log(`lorecraft mcp: ${(e as Error).message}`);
    return 1;
  }

  // From here on a stop signal must close Kùzu cleanly, so listen before opening it
  // (without a listener SIGTERM's default action kills the process mid-open).
  let signalled = false;
  let onSignal = (): void => { signalled = true; };
  const listener = (): void => onSignal();
  process.once('SIGINT', listener);
  process.once('SIGTERM', listener);
  const unlisten = (): void => { process.off('SIGINT', listener); process.off('SIGTERM', listener); };
  const stop = new Promise<void>((ok) => { onSignal = () => { signalled = true; ok(); }; if (signalled) ok(); });

  let host;
  try {
    host = await openCore({ vaultDir: o.vaultDir, dbDir: o.dbDir, configPath: o.configPath, schemaPath: o.schemaPath, watch: true });
  } catch (e) {
    if (e instanceof CoreError && e.code === 'vault-locked') {
      unlisten(); // relaying holds no database: a signal may end it the default way
      // The holder may be starting its bridge right now: give it a moment.
      for (let i = 0; i < 20; i++) {
        await sleep(250);
        try {
          const relayed = await relay();
          if (relayed !== null) return relayed;
        } catch (err) {
          log(`lorecraft mcp: ${(err as Error).message}`);
          return 1;
        }
      }
      log(`lorecraft mcp: ${e.message}; that process does not serve MCP (no ${join(bridgeDir, 'mcp-endpoint.json')})`);
      return 1;
    }
    unlisten();
    throw e;
  }

  // Build the full-text index before serving. Besides making the first search_lore fast, this
  // sidesteps a store bug (reported to the store owner): on a fresh database, reads issued while
  // the background FTS build runs leave every later search failing with "0_fts_names_appears_info
  // already exists".
  await host.search('lorecraft', { limit: 1 }).catch((e: unknown) => log(`lorecraft mcp: search index: ${String(e)}`));
  const wiring = wireMcp(host, o.mode);
  const deps = { host, editor: wiring.editor, timeline: wiring.timeline, budgetTokens: o.budgetTokens, log, ...(o.queryTimeoutMs !== undefined ? { queryTimeoutMs: o.queryTimeoutMs } : {}) };
  const server = createMcpServer({ ...deps, mode: o.mode, ...(o.audience ? { audience: o.audience } : {}) });
  const bridge = await startMcpBridge(host, { ...deps, vaultDir: o.vaultDir, dir: bridgeDir, readOnly: o.mode === 'read' }).catch((e: unknown) => {
    log(`lorecraft mcp: bridge not started (${String(e)}); other clients cannot share this vault`);
    return null;
  });
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((ok) => {
    transport.onclose = () => ok();
    stdin.once('end', () => ok());
    stdin.once('close', () => ok());
  });
  await server.connect(transport);
  log(`lorecraft mcp: serving ${o.vaultDir} (${o.audience?.audience === 'players' ? "players' view, read" : o.mode}) over stdio`);
  await Promise.race([closed, stop]);
  unlisten();
  await server.close().catch(() => {});
  await bridge?.close();
  wiring.dispose();
  await host.close();
  return 0;
}
