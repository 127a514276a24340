import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../shared/types.js';
import type { VaultSyncEngine } from './engine.js';
import { performance } from 'node:perf_hooks';
import { loadVaultConfig } from '../config/load.js';
import { compileSchema } from '../config/schema-index.js';
import { LayerMap } from '../model/layers.js';
import { fromSchemaIndex } from '../model/schema-adapter.js';
import { engineParseOptions, readVault } from './engine.js';
import { closeEngine, dumpModel, dumpStore, openEngine, tempDir, writeFiles } from './test-helpers.js';

const SCHEMA = `
entity_types:
  - name: npc
    field_mappings: [{ field: faction, relationship: MEMBER_OF }]
  - name: faction
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
`;
const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });
function dirs(): { vault: string; db: string } {
  const vault = tempDir('lc-eng-vault-');
  const db = tempDir('lc-eng-db-');
  tmp.push(vault, db);
  return { vault, db };
}
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function nextEvent(e: VaultSyncEngine, pred: (ev: ChangeEvent) => boolean = () => true): Promise<ChangeEvent> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => { off(); reject(new Error('no change event within 45 s')); }, 45_000);
    const off = e.onChange((ev) => { if (pred(ev)) { clearTimeout(t); off(); resolve(ev); } });
  });
}

async function fresh(vault: string) {
  const db = tempDir('lc-eng-fresh-');
  tmp.push(db);
  const f = await openEngine(vault, db);
  await f.syncAll({ full: true });
  const out = { model: dumpModel(f), store: await dumpStore(f.store) };
  await closeEngine(f);
  return out;
}

describe('SyncEngine', () => {
  it('syncs notes only: skips dot-folders, node_modules, non-markdown, survives symlink loops', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, {
      'schema.yaml': SCHEMA,
      'npcs/Varo.md': '---\ntype: npc\nfaction: "[[Red Hand]]"\n---\nHi [[Wren]].\n',
      'Red Hand.md': '---\ntype: faction\n---\n',
      '.obsidian/workspace.md': '[[x]]', '.git/HEAD.md': 'x', '.lorecraft/x.md': 'x', 'node_modules/m/readme.md': 'x',
      'notes.txt': '[[Varo]]', 'image.png': Buffer.from([0, 1, 2]),
    });
    symlinkSync(vault, join(vault, 'npcs', 'loop'));
    symlinkSync(join(vault, 'a.md'), join(vault, 'b.md'));
    symlinkSync(join(vault, 'b.md'), join(vault, 'a.md'));
    symlinkSync('/etc', join(vault, 'outside'));
    const e = await openEngine(vault, db);
    try {
      const r = await e.syncAll();
      expect(r.full).toBe(true);
      expect([...e.model.notes()].map((n) => n.path).sort()).toEqual(['Red Hand.md', 'npcs/Varo.md']);
      expect(r).toMatchObject({ entities: 3, relationships: 2, placeholders: 1 });
      const codes = e.model.problems().map((p) => `${p.code}:${p.file}`).sort();
      expect(codes).toEqual(expect.arrayContaining(['symlink-loop:a.md', 'symlink-loop:b.md', 'symlink-loop:npcs/loop', 'symlink-outside:outside']));
      expect((await e.store.getEntity('main/varo'))?.type).toBe('npc');
    } finally { await closeEngine(e); }
  });

  it('takes a prefetched read for its first sync only, and times the sync from the start of that read', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, { 'schema.yaml': SCHEMA, 'Varo.md': '---\ntype: npc\n---\nOld news.\n', 'Red Hand.md': '---\ntype: faction\n---\n' });
    const loaded = loadVaultConfig(vault);
    const prefetched = readVault(vault, new LayerMap(loaded.config), engineParseOptions(fromSchemaIndex(compileSchema(loaded.schema))));
    const read = await prefetched;
    // changed on disk after the read ahead: the first sync still sees what was read, the next one the change
    writeFileSync(join(vault, 'Varo.md'), '---\ntype: npc\nfaction: "[[Red Hand]]"\n---\nNew news.\n');
    await new Promise((res) => setTimeout(res, 300));
    const e = await openEngine(vault, db, { prefetched });
    try {
      const before = performance.now();
      const first = await e.syncAll();
      expect(e.model.note('Varo.md')?.body).toBe('Old news.\n');
      // the sync's time counts from the read it took over, not from syncAll's start
      expect(first.ms).toBeGreaterThanOrEqual(before - read.startedAt);
      expect(e.timings.phases?.read).toBe(Math.round(read.readMs));
      const second = await e.syncAll();
      expect(second.changedFiles).toBe(1);
      expect(e.model.note('Varo.md')?.body).toBe('New news.\n');
      expect((await e.store.edgesOf('main/varo')).map((x) => x.type)).toEqual(['MEMBER_OF']);
    } finally { await closeEngine(e); }
  });

  it('a pipe behind a .md symbolic link is reported, not read (reading it would block the process)', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, { 'schema.yaml': SCHEMA, 'Red Hand.md': '---\ntype: faction\n---\n' });
    execFileSync('mkfifo', [join(vault, 'pipe')]);
    symlinkSync(join(vault, 'pipe'), join(vault, 'Pipe.md'));
    const e = await openEngine(vault, db);
    try {
      const r = await e.syncAll();
      expect(r.entities).toBe(1);
      expect(e.model.problems().map((p) => `${p.code}:${p.file}`)).toContain('not-a-file:Pipe.md');
      // a write-back or watcher batch reads through the same path
      await e.applyPaths(['Pipe.md'], 'disk');
      expect([...e.model.notes()].map((n) => n.path)).toEqual(['Red Hand.md']);
    } finally { await closeEngine(e); }
  });

  it('a cold sync that fails midway gives the store back (its two-step rebuild is aborted), and the next sync loads it', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, { 'schema.yaml': SCHEMA, 'npcs/Varo.md': '---\ntype: npc\nfaction: "[[Red Hand]]"\n---\n', 'Red Hand.md': '---\ntype: faction\n---\n' });
    const e = await openEngine(vault, db);
    const real = e.store.beginRebuild.bind(e.store);
    let fail = true;
    e.store.beginRebuild = async () => {
      const s = await real();
      if (!s || !fail) return s;
      return { ...s, copyEntities: () => { throw new Error('injected failure while the model loads'); } };
    };
    try {
      await expect(e.syncAll()).rejects.toThrow(/injected failure/);
      // not held by a forgotten session: reads and the next sync go through
      expect(await e.store.counts()).toEqual({ entities: 0, relationships: 0, placeholders: 0 });
      fail = false;
      const r = await e.syncAll();
      expect(r).toMatchObject({ full: true, entities: 2, relationships: 1 });
      const ref = await fresh(vault);
      expect({ model: dumpModel(e), store: await dumpStore(e.store) }).toEqual(ref);
    } finally { await closeEngine(e); }
  });

  it('on restart applies only what changed (created, changed, deleted, renamed) and equals a rebuild', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, {
      'schema.yaml': SCHEMA,
      'A.md': '---\ntype: npc\nfaction: Guild\n---\n', 'B.md': 'links [[C]]\n', 'C.md': 'c\n', 'D.md': 'd [[A]]\n',
    });
    let e = await openEngine(vault, db);
    await e.syncAll();
    await closeEngine(e);
    writeFiles(vault, { 'Guild.md': '---\ntype: faction\n---\n', 'B.md': 'links [[D]]\n' });
    rmSync(join(vault, 'C.md'));
    renameSync(join(vault, 'D.md'), join(vault, 'E.md'));
    e = await openEngine(vault, db);
    try {
      const r = await e.syncAll();
      expect(r.full).toBe(false);
      expect(r.changedFiles).toBe(5);
      expect(e.model.entity('main/guild')?.placeholder).toBe(false);
      const f = await fresh(vault);
      expect(dumpModel(e)).toEqual(f.model);
      expect(await dumpStore(e.store)).toEqual(f.store);
      const again = await e.syncAll();
      expect(again.changedFiles).toBe(0);
    } finally { await closeEngine(e); }
  });

  it('rebuilds when the schema changes', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, { 'schema.yaml': SCHEMA, 'A.md': '---\ntype: npc\nfaction: G\n---\n' });
    let e = await openEngine(vault, db);
    await e.syncAll();
    await closeEngine(e);
    writeFiles(vault, { 'schema.yaml': SCHEMA.replace('MEMBER_OF }]', 'MEMBER_OF }, { field: home, relationship: LIVES_IN }]') + '  - { name: LIVES_IN }\n' });
    e = await openEngine(vault, db);
    try {
      expect((await e.syncAll()).full).toBe(true);
    } finally { await closeEngine(e); }
  });

  it('applyPaths emits one event after the store holds the change', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, { 'schema.yaml': SCHEMA, 'A.md': 'a [[Zed]]\n' });
    const e = await openEngine(vault, db);
    try {
      await e.syncAll();
      const seen: Array<{ ev: ChangeEvent; stored: boolean }> = [];
      // each listener call asks the store at once; awaiting those lookups (not a fixed wait) makes the check load-proof
      const lookups: Array<Promise<unknown>> = [];
      e.onChange((ev) => { lookups.push(e.store.getEntity('main/zed').then((z) => seen.push({ ev, stored: z?.placeholder === false }))); });
      writeFiles(vault, { 'Zed.md': '---\ntype: faction\n---\n' });
      const ev = await e.applyPaths(['Zed.md'], 'app');
      expect(ev).toMatchObject({ origin: 'app', paths: ['Zed.md'], removed: [] });
      expect(ev.upserted).toEqual(['main/zed']); // the placeholder became the note; A's edge is unchanged
      await Promise.all(lookups);
      expect(seen.length).toBe(1);
      expect(seen[0]!.stored).toBe(true);
      const none = await e.applyPaths(['Zed.md'], 'app');
      expect(none.upserted).toEqual([]);
    } finally { await closeEngine(e); }
  });

  it('the watcher brings external edits, creations, renames and deletions into the graph', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, { 'schema.yaml': SCHEMA, 'A.md': 'a\n', 'sub/B.md': 'b\n' });
    const e = await openEngine(vault, db);
    try {
      await e.syncAll();
      await e.startWatching();
      let ev = nextEvent(e, (x) => x.origin === 'disk');
      writeFileSync(join(vault, 'A.md'), '---\ntype: npc\nfaction: "[[Crows]]"\n---\n');
      expect((await ev).paths).toEqual(['A.md']);
      expect((await e.store.getEntity('main/a'))?.type).toBe('npc');
      expect((await e.store.getEntity('main/crows'))?.placeholder).toBe(true);

      ev = nextEvent(e, (x) => x.paths.includes('Crows.md'));
      writeFileSync(join(vault, 'Crows.md'), '---\ntype: faction\n---\n');
      await ev;
      expect((await e.store.getEntity('main/crows'))?.placeholder).toBe(false);

      ev = nextEvent(e, (x) => x.paths.includes('sub/C.md') && x.paths.includes('sub/B.md'));
      const ev2 = nextEvent(e, (x) => x.paths.includes('sub/C.md'));
      renameSync(join(vault, 'sub/B.md'), join(vault, 'sub/C.md'));
      await Promise.race([ev, ev2]);
      await e.settled();
      await new Promise((r) => setTimeout(r, 300));
      await e.settled();
      expect(await e.store.getEntity('main/b')).toBeNull();
      expect((await e.store.getEntity('main/c'))?.path).toBe('sub/C.md');

      ev = nextEvent(e, (x) => x.removed.includes('main/c'));
      rmSync(join(vault, 'sub'), { recursive: true });
      await ev;
      expect(e.model.note('sub/C.md')).toBeUndefined();
      const f = await fresh(vault);
      expect(await dumpStore(e.store)).toEqual(f.store);
    } finally { await closeEngine(e); }
  });

  it("the watcher's echo of the app's own write changes nothing and emits no second event", async () => {
    const { vault, db } = dirs();
    writeFiles(vault, { 'schema.yaml': SCHEMA, 'A.md': 'a\n' });
    const e = await openEngine(vault, db);
    try {
      await e.syncAll();
      await e.startWatching();
      const events: ChangeEvent[] = [];
      e.onChange((ev) => events.push(ev));
      const text = 'a links [[B]]\n';
      e.expectWrite('A.md', sha(text));
      writeFileSync(join(vault, 'A.md'), text);
      const ev = await e.applyPaths(['A.md'], 'app');
      expect(ev.upserted).toContain('main/a');
      // give the watcher time to see the write, then let it finish
      await new Promise((r) => setTimeout(r, 600));
      await e.settled();
      expect(events.map((x) => x.origin)).toEqual(['app']);
      // a later external edit of the same file is not mistaken for an echo
      const next = nextEvent(e, (x) => x.origin === 'disk');
      writeFileSync(join(vault, 'A.md'), 'changed outside\n');
      await next;
      expect(e.model.edgesFrom('main/a')).toEqual([]);
    } finally { await closeEngine(e); }
  });

  it('a burst of writes is applied completely', async () => {
    const { vault, db } = dirs();
    writeFiles(vault, { 'schema.yaml': SCHEMA, 'Hub.md': 'hub\n' });
    const e = await openEngine(vault, db);
    try {
      await e.syncAll();
      await e.startWatching();
      const events: ChangeEvent[] = [];
      e.onChange((ev) => events.push(ev));
      for (let i = 0; i < 30; i++) writeFileSync(join(vault, `N${i}.md`), `note ${i} [[Hub]]\n`);
      const deadline = Date.now() + 15_000;
      while (e.model.edgesTo('main/hub').length < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await e.settled();
      expect(e.model.edgesTo('main/hub').length).toBe(30);
      expect(events.length).toBeLessThan(30);
      expect((await e.store.counts()).entities).toBe(31);
    } finally { await closeEngine(e); }
  });
});
