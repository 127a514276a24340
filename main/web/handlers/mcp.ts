/**
 * The `mcp-*` group (shared/contract-mcp.ts) over main/mcp/connect.ts, for the
 * open vault. The Claude Desktop config file is the OS default unless the
 * environment names another with LORECRAFT_CLAUDE_CONFIG (tests, sandboxes).
 */
import type { mcpHandlers } from '../../../shared/contract-mcp.js';
import { claudeDesktopConfigPath, connectClaudeDesktop, lorecraftMcpCommand, mcpSnippets } from '../../mcp/connect.js';
import type { CoreSession } from '../session.js';
import type { Group } from './vault.js';

/** The config file to write: $LORECRAFT_CLAUDE_CONFIG when set, else the OS default. */
export function claudeConfigTarget(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.LORECRAFT_CLAUDE_CONFIG?.trim();
  return override ? override : claudeDesktopConfigPath({ env });
}

export function mcpGroup(session: CoreSession): Group<typeof mcpHandlers> {
  return {
    'mcp-snippets': async ({ readWrite }) => {
      const cmd = lorecraftMcpCommand(session.current().vaultDir, { readWrite });
      return { ...cmd, claudeDesktopConfigPath: claudeConfigTarget(), snippets: mcpSnippets(cmd) };
    },
    'mcp-connect': async ({ readWrite }) => {
      const cmd = lorecraftMcpCommand(session.current().vaultDir, { readWrite });
      return connectClaudeDesktop({ ...cmd, configPath: claudeConfigTarget() });
    },
  };
}
