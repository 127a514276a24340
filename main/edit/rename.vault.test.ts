/**
 * Rename over a copy of the real thellade vault: "Kanda Isles" is linked 141
 * times, by name (`[[Kanda Isles]]`) and by path (`[[01 Campaign/.../Kanda Isles]]`),
 * and is also a folder name inside other links' paths, which must stay as is.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEditor, type Editor } from './commands.js';
import { openTestHost, removeVault, type TestHost } from './test-host.js';

const SRC = join(import.meta.dirname, '../../examples/thellade/vault');
const OLD = '01 Campaign/01 World/04 Subregions/01 Thellade/The Outcast Isles/Kanda Isles.md';
const NEW = '01 Campaign/01 World/04 Subregions/01 Thellade/The Outcast Isles/Kanda Archipelago.md';

function readAll(dir: string, out = new Map<string, string>(), root = dir): Map<string, string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) readAll(p, out, root);
    else if (e.name.endsWith('.md')) out.set(relative(root, p), readFileSync(p, 'utf8'));
  }
  return out;
}

const count = (files: Map<string, string>, re: RegExp) => [...files.values()].reduce((n, t) => n + (t.match(re)?.length ?? 0), 0);

let vault: string;
let host: TestHost;
let ed: Editor;
let before: Map<string, string>;

beforeAll(async () => {
  vault = join(mkdtempSync(join(tmpdir(), 'lc-thellade-')), 'vault');
  cpSync(SRC, vault, { recursive: true });
  before = readAll(vault);
  host = await openTestHost(vault);
  ed = createEditor(host);
}, 180_000);
afterAll(async () => {
  ed.dispose();
  await host.close();
  removeVault(join(vault, '..'));
});

describe('rename on the real vault', { timeout: 120_000 }, () => {
  it('rewrites every reference, keeps folder segments, and undo restores every byte', async () => {
    const m = host.engine.model;
    const oldId = m.entityIdOfPath(OLD)!;
    const referrers = m.referrers(oldId).filter((p) => p !== OLD);
    expect(referrers.length).toBeGreaterThan(50);
    const byName = count(before, /\[\[Kanda Isles\]\]/g);
    const byPath = count(before, /\[\[01 Campaign\/01 World\/04 Subregions\/01 Thellade\/The Outcast Isles\/Kanda Isles\]\]/g);
    const asFolder = count(before, /\/Kanda Isles\//g);
    expect(byName + byPath).toBeGreaterThan(100);

    const res = await ed.rename('Kanda Isles', 'Kanda Archipelago');
    expect(res.path).toBe(NEW);
    const after = readAll(vault);
    expect(after.has(OLD)).toBe(false);
    expect(after.get(NEW)).toBe(before.get(OLD));
    expect(count(after, /\[\[Kanda Isles\]\]/g)).toBe(0);
    expect(count(after, /\/The Outcast Isles\/Kanda Isles\]\]/g)).toBe(0);
    // the README quotes a link in inline code: not a link, left alone
    expect(after.get('README.md')).toBe(before.get('README.md'));
    expect(count(after, /\[\[Kanda Archipelago\]\]/g)).toBe(byName);
    expect(count(after, /\/The Outcast Isles\/Kanda Archipelago\]\]/g)).toBe(byPath);
    expect(count(after, /\/Kanda Isles\//g)).toBe(asFolder);
    // only referrers changed, and in them only lines that held a link to it
    const changed = new Set(res.changed.map((c) => c.path));
    for (const [p, text] of before) {
      if (p === OLD) continue;
      if (!changed.has(p)) { expect(after.get(p), p).toBe(text); continue; }
      expect(referrers).toContain(p);
      const a = text.split('\n');
      const b = after.get(p)!.split('\n');
      expect(b.length).toBe(a.length);
      a.forEach((line, i) => { if (line !== b[i]) expect(line, `${p}:${i + 1}`).toMatch(/Kanda Isles/); });
    }
    // the graph: the same notes now refer to the new entity, none to a placeholder of the old
    const newId = m.entityIdOfPath(NEW)!;
    expect(m.referrers(newId).filter((p) => p !== NEW).sort()).toEqual([...referrers].map((p) => p).sort());
    expect(m.entity(oldId)).toBeUndefined();

    await ed.undo();
    const restored = readAll(vault);
    expect(restored.size).toBe(before.size);
    for (const [p, text] of before) expect(restored.get(p), p).toBe(text);
    expect(m.referrers(m.entityIdOfPath(OLD)!).filter((p) => p !== OLD).sort()).toEqual([...referrers].sort());
  });
});
