/**
 * The `mcp-*` handler group: "Connect Claude Desktop". Main knows how to start
 * this install's `lorecraft mcp` for the open vault (main/install/claude-desktop.ts);
 * the renderer shows the snippets for other clients and asks main to merge the
 * server into Claude Desktop's config file (backup first, other servers kept).
 *
 * `readWrite` adds `--read-write` to the server's arguments (the assistant may
 * then write notes). A config file that is not JSON comes back as the wire error
 * 'bad-config' naming the file, which is left untouched.
 */
import { z } from 'zod';
import { handler } from './schemas.js';

const McpReqZ = z.object({ readWrite: z.boolean().optional() }).strict();

export const McpSnippetsZ = z.object({
  /** the program and arguments that start Lorecraft's MCP server for the open vault */
  command: z.string(),
  args: z.array(z.string()),
  /** variables the client must set (the packaged app: ELECTRON_RUN_AS_NODE=1) */
  env: z.record(z.string(), z.string()).optional(),
  /** the Claude Desktop config file that "Add to Claude Desktop" would write */
  claudeDesktopConfigPath: z.string(),
  snippets: z.object({ claudeCode: z.string(), cursor: z.string(), claudeDesktop: z.string() }),
});
export type McpSnippetsView = z.infer<typeof McpSnippetsZ>;

export const McpConnectResultZ = z.object({
  configPath: z.string(),
  /** the copy saved before writing; null when there was no config file yet */
  backupPath: z.string().nullable(),
  action: z.enum(['added', 'updated']),
  /** the other servers found in the file, all kept */
  kept: z.array(z.string()),
  /** the entry's name: lorecraft-<vault folder> (a second vault gets its own) */
  name: z.string().optional(),
});
export type McpConnectResult = z.infer<typeof McpConnectResultZ>;

export const mcpHandlers = {
  'mcp-snippets': handler(McpReqZ, McpSnippetsZ),
  'mcp-connect': handler(McpReqZ, McpConnectResultZ),
};
