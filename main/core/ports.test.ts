/**
 * openCore is handed the file system and the watcher (main/sync/ports.ts), as Foam's bootstrap is
 * handed its data store and watcher: a core over a VaultFs that serves a note no disk holds, and a
 * watcher that hands over batches only when the test says so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../shared/types.js';
import { parseNote } from '../parse/parse.js';
import { nodeVaultFs, openCore, type CoreHost, type VaultFs, type WatcherOptions } from './index.js';

const SCHEMA = 'entity_types:\n  - name: place\n';
let dir: string;
let core: CoreHost | null = null;

afterEach(async () => {
  await core?.close();
  core = null;
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function vault(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'lc-ports-'));
  await writeFile(join(dir, 'schema.yaml'), SCHEMA);
  await writeFile(join(dir, 'Harbour.md'), '---\ntype: place\n---\nBy the sea.\n');
  return dir;
}

describe('openCore is handed its file system and watcher', () => {
  it('reads the notes through the VaultFs it is given', async () => {
    const v = await vault();
    const virtual = join(v, 'Sky Keep.md');
    const calls: string[] = [];
    // a file system that also holds one note that no disk has (the rest comes from node:fs)
    const text = '---\ntype: place\n---\nAbove the clouds, beside [[Harbour]].\n';
    const fs: VaultFs = {
      async walk(root, layers) {
        calls.push('walk');
        const w = await nodeVaultFs.walk(root, layers);
        return { ...w, files: new Map([...w.files, ['Sky Keep.md', virtual]]) };
      },
      async read(files, opts) {
        calls.push('read');
        const list = [...files];
        const real = nodeVaultFs.readSync(list.filter(([rel]) => rel !== 'Sky Keep.md'), opts);
        if (list.some(([rel]) => rel === 'Sky Keep.md')) {
          real.notes.push(parseNote('Sky Keep.md', Buffer.from(text), opts));
        }
        return real;
      },
      readSync: (files, opts) => nodeVaultFs.readSync(files, opts),
    };
    core = await openCore({ vaultDir: v, fs });
    expect(calls).toEqual(['walk', 'read']);
    const keep = await core.getEntity('Sky Keep');
    expect(keep?.type).toBe('place');
    expect(keep?.relations.map((r) => r.other.name)).toEqual(['Harbour']);
    expect(await core.getEntity('Harbour')).not.toBeNull();
  });

  it('watches through the watcher it is given: a change on disk is applied when that watcher hands it over', async () => {
    const v = await vault();
    const made: WatcherOptions[] = [];
    let started = 0;
    core = await openCore({
      vaultDir: v, watch: true,
      watcher: (o) => {
        made.push(o);
        return { start: async () => { started++; }, flushNow: async () => undefined, close: async () => undefined };
      },
    });
    expect(made).toHaveLength(1);
    expect(started).toBe(1);
    const events: ChangeEvent[] = [];
    core.onChange((e) => events.push(e));
    await writeFile(join(v, 'Lighthouse.md'), '---\ntype: place\n---\nOn the rock.\n');
    await new Promise((r) => setTimeout(r, 400));
    // no fs.watch of its own: nothing seen until the given watcher speaks
    expect(await core.getEntity('Lighthouse')).toBeNull();
    expect(made[0]!.isNote('Lighthouse.md')).toBe(true);
    await made[0]!.onBatch(['Lighthouse.md']);
    expect((await core.getEntity('Lighthouse'))?.type).toBe('place');
    expect(events.at(-1)).toMatchObject({ origin: 'disk', paths: ['Lighthouse.md'] });
  });
});
