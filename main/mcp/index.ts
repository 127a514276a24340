/**
 * The MCP capability's public surface (issue 7). See docs/mcp.md.
 * - createMcpServer: the server factory handed the core (read / read-write)
 * - runMcpStdio: `lorecraft mcp` (stdio; relays to a running holder of the vault)
 * - startMcpBridge / withMcpBridge: serve MCP from a process that holds the vault (web shell, Electron)
 * - connectClaudeDesktop / mcpSnippets / lorecraftMcpCommand: "Connect Claude Desktop" and the other clients' snippets
 */
export { createMcpServer, type McpServerDeps } from './server.js';
export { runMcpStdio, type StdioOptions } from './stdio.js';
export { startMcpBridge, readEndpoint, endpointPath, type McpBridge, type BridgeOptions } from './bridge.js';
export { withMcpBridge, startHostBridge, type HostBridgeOptions } from './host-bridge.js';
export { connectClaudeDesktop, claudeDesktopConfigPath, mcpSnippets, lorecraftMcpCommand, type ConnectResult, type McpSnippets } from './connect.js';
export { wireMcp, adaptEditor } from './wire.js';
export { DEFAULT_BUDGET_TOKENS } from './budget.js';
