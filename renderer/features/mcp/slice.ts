/**
 * "Connect Claude Desktop" dialog state: open/closed, read-only or read-write,
 * the snippets main computed for the open vault (refetched when the mode
 * changes) and the outcome of "Add to Claude Desktop" (result or error).
 */
import type { StateCreator } from 'zustand';
import type { McpConnectResult, McpSnippetsView } from '../../../shared/contract-mcp.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';

export interface McpSlice {
  mcpOpen: boolean;
  mcpReadWrite: boolean;
  mcpSnippets: McpSnippetsView | null;
  mcpBusy: boolean;
  mcpResult: McpConnectResult | null;
  mcpError: string | null;
  openMcp(open: boolean): void;
  setMcpReadWrite(rw: boolean): void;
  loadMcpSnippets(): Promise<void>;
  connectClaude(): Promise<void>;
}

let snippetSeq = 0;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export const createMcpSlice: StateCreator<AppState, [], [], McpSlice> = (set, get) => ({
  mcpOpen: false,
  mcpReadWrite: false,
  mcpSnippets: null,
  mcpBusy: false,
  mcpResult: null,
  mcpError: null,

  openMcp(open) {
    set({ mcpOpen: open, mcpResult: null, mcpError: null });
    if (open) void get().loadMcpSnippets();
  },

  setMcpReadWrite(rw) {
    set({ mcpReadWrite: rw, mcpResult: null, mcpError: null });
    void get().loadMcpSnippets();
  },

  async loadMcpSnippets() {
    const mine = ++snippetSeq;
    try {
      const s = await api.call('mcp-snippets', { readWrite: get().mcpReadWrite });
      if (mine === snippetSeq) set({ mcpSnippets: s });
    } catch (e) {
      if (mine === snippetSeq) set({ mcpSnippets: null, mcpError: message(e) });
    }
  },

  async connectClaude() {
    set({ mcpBusy: true, mcpResult: null, mcpError: null });
    try {
      const r = await api.call('mcp-connect', { readWrite: get().mcpReadWrite });
      set({ mcpResult: r, mcpBusy: false });
    } catch (e) {
      set({ mcpError: message(e), mcpBusy: false });
    }
  },
});
