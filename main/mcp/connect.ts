// Moved to main/install/claude-desktop.ts (a domain module, exposed by the core); kept for the existing importers.
export { claudeDesktopConfigPath, connectClaudeDesktop, planClaudeDesktop, lorecraftMcpCommand, mcpSnippets, entryName, type ConnectResult, type ClaudeDesktopEntry, type McpSnippets } from '../core/index.js';
