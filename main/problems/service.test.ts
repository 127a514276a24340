/**
 * The problems service over a real openCore (Kùzu, sync engine): Core.problems()
 * serves the full validated list (what MCP get_problems and the app's
 * problems-list read), and it follows file changes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCore } from '../core/index.js';
import { listProblems, problemsService } from './index.js';
import { cleanupVaults, md, writeVault } from './test-vault.js';

afterAll(cleanupVaults);

describe('problems over a live core', () => {
  it('Core.problems() includes computed rules and follows a file change', async () => {
    const dir = writeVault({
      'setting/Alone.md': md('title: Alone\ntype: npc\nmood: calm'),
      'setting/Varo.md': md('title: Varo\ntype: npc'),
      'war/A.md': md('title: A\ntype: event\nsession: 1\nconsequences:\n  - { entity: Varo, property: status, value: dead }'),
      'war/B.md': md('title: B\ntype: event\nsession: 2\nparticipants: ["[[Varo]]"]'),
    });
    const core = await openCore({ vaultDir: dir });
    try {
      const svc = problemsService(core);
      const codes = () => core.problems().map((p) => `${p.code} ${p.file}`);
      expect(codes()).toContain('orphan setting/Alone.md');
      expect(codes()).toContain('unknown-property setting/Alone.md');
      expect(codes()).toContain('dead-participant war/B.md');
      expect(svc.report().counts.error).toBe(1);

      writeFileSync(join(dir, 'setting/Friend.md'), md('title: Friend\ntype: npc', 'Knows [[Alone]].'));
      writeFileSync(join(dir, 'war/B.md'), md('title: B\ntype: event\nsession: 2'));
      await core.engine.applyPaths(['setting/Friend.md', 'war/B.md'], 'disk');

      expect(codes()).not.toContain('orphan setting/Alone.md');
      expect(codes()).not.toContain('dead-participant war/B.md');
      expect(svc.report().counts.error).toBe(0);
      expect(listProblems(core, { file: 'setting/Alone.md' }).problems.map((p) => p.code)).toEqual(['unknown-property']);
      svc.close();
    } finally {
      await core.close();
    }
  });
});
