/** `lorecraft validate` end to end: real vault files, real openCore (Kùzu), captured output. */
import { afterAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../index.js';
import type { CliIo } from '../io.js';
import { cleanupVaults, md, SCHEMA, writeVault } from '../../problems/test-vault.js';

afterAll(cleanupVaults);

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(['validate', ...args], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const broken = {
  'setting/Lysa.md': md('title: Lysa\ntype: npc\nstatus: aliv\nfaction: "[[Nobody]]"'),
  'setting/Alone.md': md('title: Alone\ntype: npc'),
};
const clean = {
  'setting/Lysa.md': md('title: Lysa\ntype: npc\nstatus: alive\nfaction: "[[Bureau]]"'),
  'setting/Bureau.md': md('title: Bureau\ntype: faction'),
};

describe('lorecraft validate', () => {
  it('prints problems grouped by file with line, field and fix hint; exit 1 on an error', async () => {
    const dir = writeVault(broken);
    const r = await cli(['--vault', dir]);
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    const at = lines.indexOf('setting/Lysa.md');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(/^ {2}4:status\s+error\s+enum-value\s+'status' is 'aliv'/);
    expect(lines[at + 2]).toMatch(/fix: /);
    expect(r.out).toContain('5:faction');
    expect(r.out).toContain('dangling-link');
    expect(lines.includes('setting/Alone.md')).toBe(true);
    expect(lines[lines.length - 1]).toBe('3 problems: 1 error, 1 warning, 1 info');
  });

  it('--json prints { problems, counts, files } and exit 0 when only warnings/info remain', async () => {
    const dir = writeVault(broken, { schema: `${SCHEMA}\nrules: { enum-value: warning }\n` });
    const r = await cli(['--vault', dir, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { problems: Array<{ code: string; file: string; line: number }>; counts: Record<string, number>; files: Record<string, unknown> };
    expect(j.counts).toEqual({ error: 0, warning: 2, info: 1 });
    expect(Object.keys(j.files).sort()).toEqual(['setting/Alone.md', 'setting/Lysa.md']);
    expect(j.problems.map((p) => [p.file, p.line, p.code])).toEqual([
      ['setting/Alone.md', 1, 'orphan'],
      ['setting/Lysa.md', 4, 'enum-value'],
      ['setting/Lysa.md', 5, 'dangling-link'],
    ]);
  });

  it('a clean vault: "no problems", exit 0', async () => {
    const r = await cli(['--vault', writeVault(clean)]);
    expect(r.out.trim()).toBe('no problems');
    expect(r.code).toBe(0);
  });

  it('--schema, --config and --db are honoured', async () => {
    const dir = writeVault(broken);
    const alt = writeVault({}, {
      schema: `${SCHEMA}\nrules: { enum-value: off, orphan: off, dangling-link: off }\n`,
      config: 'layers:\n  - { name: setting, paths: [setting] }\n',
    });
    const r = await cli(['--vault', dir, '--schema', join(alt, 'schema.yaml'), '--config', join(alt, 'lorecraft.yaml'), '--db', join(alt, 'db'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).problems).toEqual([]);
  });

  it('validates from the files when another holder has the vault database (lock), and says so', async () => {
    const dir = writeVault(broken);
    const { openCore } = await import('../../core/index.js');
    const core = await openCore({ vaultDir: dir });
    try {
      const r = await cli(['--vault', dir, '--json']);
      expect(r.err).toMatch(/without the database/);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.out).counts).toEqual({ error: 1, warning: 1, info: 1 });
    } finally {
      await core.close();
    }
  });

  it('usage errors exit 2: unknown option, stray argument, missing folder, option without value', async () => {
    expect((await cli(['--vault', writeVault(clean), '--bogus'])).code).toBe(2);
    expect((await cli(['--vault', writeVault(clean), 'extra'])).code).toBe(2);
    const missing = await cli(['--vault', join(tmpdir(), 'lc-no-such-vault-xyz')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no such folder');
    expect((await cli(['--vault'])).code).toBe(2);
  });
});
