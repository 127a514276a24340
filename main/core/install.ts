/**
 * The core's face for the install: how this install starts its CLI and MCP server
 * (main/install/) and "Connect Claude Desktop". No vault needs to be open: the
 * renderer's button (web/Electron handler) and `lorecraft connect claude` call these.
 */
export {
  claudeDesktopConfigPath, connectClaudeDesktop, planClaudeDesktop, lorecraftMcpCommand, mcpSnippets, entryName,
  type ConnectResult, type ClaudeDesktopEntry, type McpSnippets,
} from '../install/claude-desktop.js';
export { currentInstall, detectInstall, packagedCliScript, type Install, type InstallFacts, type LaunchCommand } from '../install/runtime.js';
