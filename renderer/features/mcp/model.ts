/**
 * What the Connect dialog says after "Add to Claude Desktop": pure, so it is
 * unit-tested without a DOM.
 */
import type { McpConnectResult } from '../../../shared/contract-mcp.js';

export interface ResultLine { key: 'config' | 'backup' | 'kept'; label: string; value: string }

export function resultLines(r: McpConnectResult): ResultLine[] {
  return [
    { key: 'config', label: r.action === 'added' ? 'Added to' : 'Updated in', value: r.configPath },
    { key: 'backup', label: 'Backup', value: r.backupPath ?? 'none (there was no config file yet)' },
    { key: 'kept', label: 'Other servers kept', value: r.kept.length ? r.kept.join(', ') : 'none' },
  ];
}

/** One sentence for the GM: restart Claude Desktop, and what the assistant may do. */
export function resultSummary(r: McpConnectResult, readWrite: boolean): string {
  const verb = r.action === 'added' ? 'added to' : 'updated in';
  const mode = readWrite ? 'read and write notes' : 'read the vault (no writes)';
  return `Lorecraft was ${verb} Claude Desktop: it may ${mode}. Restart Claude Desktop to use it.`;
}
