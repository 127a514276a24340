/**
 * The hook a shell (web shell, Electron main) uses to serve MCP for whatever
 * vault it has open: wrap its core opener, and every core it opens gets a
 * bridge (so `lorecraft mcp` for that vault relays to this process), closed —
 * endpoint file removed — when that core closes (vault switch or shutdown).
 *
 *   new CoreSession(emit, withMcpBridge(openWatchedCore))
 */
import type { Core } from '../core/index.js';
import type { CoreHost } from '../core/index.js';
import { startMcpBridge, type McpBridge } from './bridge.js';
import { wireMcp } from './wire.js';

export interface HostBridgeOptions {
  /** refuse read-write clients (default: allowed — the app's own write-back serves them) */
  readOnly?: boolean;
  budgetTokens?: number;
  log?: (line: string) => void;
}

/** Start the bridge for an open core; returns a disposer. */
export async function startHostBridge(host: CoreHost, opts: HostBridgeOptions = {}): Promise<McpBridge & { dispose(): Promise<void> }> {
  const wiring = wireMcp(host, opts.readOnly ? 'read' : 'read-write');
  const bridge = await startMcpBridge(host, {
    editor: wiring.editor, timeline: wiring.timeline, readOnly: opts.readOnly, budgetTokens: opts.budgetTokens, log: opts.log,
  });
  return { ...bridge, dispose: async () => { await bridge.close(); wiring.dispose(); } };
}

export function withMcpBridge<C extends Core, H = unknown>(opener: (vaultDir: string, hooks?: H) => Promise<C>, opts: HostBridgeOptions = {}): (vaultDir: string, hooks?: H) => Promise<C> {
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  return async (vaultDir, hooks) => {
    const core = await opener(vaultDir, hooks);
    if (!('engine' in core)) return core; // not a full CoreHost: nothing to serve
    let b: Awaited<ReturnType<typeof startHostBridge>> | null = null;
    try {
      b = await startHostBridge(core as unknown as CoreHost, { ...opts, log });
    } catch (e) {
      log(`lorecraft: MCP bridge not started for ${vaultDir}: ${e instanceof Error ? e.message : String(e)}`);
      return core;
    }
    const close = core.close.bind(core);
    core.close = async () => {
      await b?.dispose().catch(() => undefined);
      b = null;
      return close();
    };
    return core;
  };
}
