import { describe, expect, it } from 'vitest';
import { resultLines, resultSummary } from './model.js';

describe('Connect dialog result', () => {
  it('names the config file, the backup and the servers kept', () => {
    const r = { configPath: '/h/.config/Claude/claude_desktop_config.json', backupPath: '/h/.config/Claude/c.json.bak', action: 'added' as const, kept: ['filesystem', 'memory'] };
    expect(resultLines(r)).toEqual([
      { key: 'config', label: 'Added to', value: r.configPath },
      { key: 'backup', label: 'Backup', value: r.backupPath },
      { key: 'kept', label: 'Other servers kept', value: 'filesystem, memory' },
    ]);
    expect(resultSummary(r, false)).toMatch(/added to Claude Desktop.*read the vault \(no writes\).*Restart/);
  });

  it('says when there was no file to back up, nothing else to keep, and an update', () => {
    const r = { configPath: '/c.json', backupPath: null, action: 'updated' as const, kept: [] };
    const lines = resultLines(r);
    expect(lines[0]!.label).toBe('Updated in');
    expect(lines[1]!.value).toMatch(/^none/);
    expect(lines[2]!.value).toBe('none');
    expect(resultSummary(r, true)).toMatch(/updated in Claude Desktop.*read and write notes/);
  });
});
