import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { openCore, type CoreHost } from './index.js';

// The GM's searches from issue 20: the entity itself first, then prefixes, fuzzy names, tags, body mentions.
const FILES = {
  'schema.yaml': 'entity_types:\n  - name: npc\n  - name: place\n  - name: event\n',
  'npcs/Captain Varo.md': '---\ntype: npc\naliases: [Varo, The Red Captain]\n---\nCommands the [[Red Hand|raiders]].\n',
  'events/The Death of Captain Varo.md': '---\ntype: event\n---\n[[Captain Varo]] falls at [[places/Millbrook#Bridge|the bridge]].\n',
  'places/Millbrook.md': '---\ntype: place\n---\nA quiet village.\n',
  'places/New Millbrook.md': '---\ntype: place\n---\nBuilt after the fire.\n',
  'places/Harbour.md': '---\ntype: place\ntags: [millbrook]\n---\nDocks.\n',
  'notes/Rumours.md': 'People in Millbrook whisper about [[Captain Varo]] and the ferry.\n',
};

let core: CoreHost;
let dir: string;
beforeAll(async () => {
  dir = tempDir('lc-search-');
  writeFiles(dir, FILES);
  core = await openCore({ vaultDir: dir });
  await core.searchReady();
});
afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});
const names = async (q: string): Promise<string[]> => (await core.search(q)).map((h) => h.entity.name);

describe('search ranks the entity first', () => {
  it('an alias finds its entity first, and says which alias matched', async () => {
    const [top] = await core.search('Varo');
    expect(top).toMatchObject({ entity: { name: 'Captain Varo' }, matched: 'alias', alias: 'Varo', snippet: 'Captain Varo («Varo»)' });
    expect((await core.search('red captain'))[0]).toMatchObject({ entity: { name: 'Captain Varo' }, alias: 'The Red Captain' });
  });

  it('an exact name outranks a longer name containing it, which outranks tags and body mentions', async () => {
    expect((await names('Captain Varo')).slice(0, 2)).toEqual(['Captain Varo', 'The Death of Captain Varo']);
    const hits = await core.search('millbrook');
    expect(hits.map((h) => h.entity.name)).toEqual(['Millbrook', 'New Millbrook', 'Harbour', 'Rumours', 'The Death of Captain Varo']);
    expect(hits.map((h) => h.matched)).toEqual(['name', 'name', 'tag', 'body', 'body']);
    const scores = hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('a misspelt name still finds the entity above body mentions', async () => {
    expect((await names('Milbrook'))[0]).toBe('Millbrook');
  });

  it('body snippets show links as the words they read as', async () => {
    const hit = (await core.search('bridge')).find((h) => h.entity.name === 'The Death of Captain Varo');
    expect(hit?.snippet).toBe('Captain Varo falls at the «bridge».');
    const rumours = (await core.search('ferry'))[0];
    expect(rumours?.snippet).not.toContain('[[');
    expect(rumours?.snippet).toContain('Captain Varo and the «ferry»');
  });

  it('filters and the limit apply to name matches too', async () => {
    expect(await names('Varo')).toContain('Captain Varo');
    const types = new Set((await core.search('millbrook')).map((h) => h.entity.type));
    expect(types.size).toBeGreaterThan(1);
    const only = (await core.search('millbrook', { type: 'place' }));
    expect(only.map((h) => h.entity.name)).toEqual(['Millbrook', 'New Millbrook', 'Harbour']);
    expect((await core.search('Varo', { type: 'place' })).map((h) => h.entity.name)).toEqual([]);
    expect(await core.search('millbrook', { limit: 2 })).toHaveLength(2);
  });
});
