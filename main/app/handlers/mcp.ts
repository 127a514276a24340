/**
 * The `mcp-*` group (shared/contract-mcp.ts) over main/install/claude-desktop.ts (via the core), for the
 * open vault. The Claude Desktop config file is the OS default unless the
 * environment names another with LORECRAFT_CLAUDE_CONFIG (tests, sandboxes).
 */
import type { mcpHandlers } from '../../../shared/contract-mcp.js';
import { claudeDesktopConfigPath, connectClaudeDesktop, entryName, lorecraftMcpCommand, mcpSnippets } from '../../core/index.js';
import type { CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';

/** The config file to write: $LORECRAFT_CLAUDE_CONFIG when set, else the OS default. */
export function claudeConfigTarget(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.LORECRAFT_CLAUDE_CONFIG?.trim();
  return override ? override : claudeDesktopConfigPath({ env });
}

export function mcpGroup(session: CoreSession): Group<typeof mcpHandlers> {
  return {
    'mcp-snippets': async ({ readWrite }) => {
      const vaultDir = session.current().vaultDir;
      const cmd = lorecraftMcpCommand(vaultDir, { readWrite });
      return { ...cmd, claudeDesktopConfigPath: claudeConfigTarget(), snippets: mcpSnippets({ ...cmd, name: entryName(vaultDir) }) };
    },
    'mcp-connect': async ({ readWrite }) => {
      return connectClaudeDesktop({ vaultDir: session.current().vaultDir, readWrite, configPath: claudeConfigTarget() });
    },
  };
}
