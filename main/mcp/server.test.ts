/**
 * The full tool matrix with the real SDK client over InMemoryTransport, on a
 * temp copy of the sample world opened by the real core (Kùzu, files).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, textOf, type Harness } from './testkit.js';

const READ_TOOLS = [
  'search_lore', 'lookup', 'get_entity', 'get_relationships', 'find_path', 'list_entities', 'get_current_state',
  'get_timeline', 'check_consistency', 'get_schema', 'load_scene_context', 'get_problems', 'query_graph', 'list_trash',
];
const WRITE_TOOLS = ['create_entity', 'update_entity', 'add_relationship', 'remove_relationship', 'record_event', 'restore_from_trash'];

type Summary = { id: string; name: string; type: string | null; layer: string; path: string | null };

let h: Harness;
beforeAll(async () => { h = await openHarness({ mode: 'read' }); });
afterAll(async () => { await h?.close(); });

describe('tool list (read mode)', () => {
  it('registers exactly the read tools, each with input/output schema and annotations', async () => {
    const { tools } = await h.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.annotations?.destructiveHint, t.name).toBe(false);
      expect(t.annotations?.idempotentHint, t.name).toBe(true);
    }
  });

  it('writes tool descriptions from the vault schema (type and relationship names)', async () => {
    const { tools } = await h.client.listTools();
    const by = Object.fromEntries(tools.map((t) => [t.name, t.description ?? '']));
    expect(by.search_lore).toContain('settlement');
    expect(by.search_lore).toContain('npc');
    expect(by.get_relationships).toContain('MEMBER_OF');
    expect(by.get_relationships).toContain('PART_OF');
    expect(by.get_current_state).toContain('campaign');
    expect(by.load_scene_context).toContain('PART_OF');
  });

  it('keeps the parameter names of the issue', async () => {
    const { tools } = await h.client.listTools();
    const props = (n: string) => Object.keys((tools.find((t) => t.name === n)!.inputSchema.properties ?? {}));
    expect(props('search_lore')).toEqual(expect.arrayContaining(['query', 'layer', 'type', 'limit']));
    expect(props('get_entity')).toEqual(expect.arrayContaining(['name', 'type', 'layer', 'session']));
    expect(props('get_relationships')).toEqual(expect.arrayContaining(['name', 'type', 'depth', 'direction']));
    expect(props('find_path')).toEqual(expect.arrayContaining(['from', 'to', 'max_depth']));
    expect(props('list_entities')).toEqual(expect.arrayContaining(['type', 'layer', 'tag', 'cursor']));
    expect(props('get_current_state')).toEqual(expect.arrayContaining(['name', 'layer', 'session']));
    expect(props('get_timeline')).toEqual(expect.arrayContaining(['layer', 'entity', 'from_session', 'to_session']));
    expect(props('check_consistency')).toEqual(expect.arrayContaining(['entity', 'claim']));
    expect(props('load_scene_context')).toEqual(expect.arrayContaining(['location', 'characters', 'pc']));
    expect(props('query_graph')).toEqual(['cypher', 'cursor']);
    expect(props('get_schema')).toEqual(['cursor']);
  });
});

describe('read tools', () => {
  it('search_lore ranks name matches and filters by type', async () => {
    const r = await h.ok<{ hits: Array<{ entity: Summary; snippet: string }>; total: number }>('search_lore', { query: 'Millbrook' });
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.hits.map((x) => x.entity.name)).toContain('Millbrook');
    const typed = await h.ok<{ hits: Array<{ entity: Summary }> }>('search_lore', { query: 'Millbrook', type: 'event' });
    expect(typed.hits.length).toBeGreaterThan(0);
    expect(typed.hits.every((x) => x.entity.type === 'event')).toBe(true);
  });

  it('lookup resolves an alias with a confidence', async () => {
    const r = await h.ok<{ matches: Array<{ entity: Summary; confidence: number; matched_on: string }> }>('lookup', { name: 'the Red Captain' });
    expect(r.matches[0]!.entity.name).toBe('Captain Varo');
    expect(r.matches[0]!.matched_on).toBe('alias');
    expect(r.matches[0]!.confidence).toBeCloseTo(0.9);
  });

  it('get_entity returns properties, source path and relations; text sits beside structuredContent', async () => {
    const res = await h.call('get_entity', { name: 'Captain Varo' });
    expect(res.isError).toBeFalsy();
    const r = res.structuredContent as { entity: Summary & { properties: Record<string, unknown>; aliases: string[] }; relations: Array<{ label: string; other: Summary }> };
    expect(r.entity.path).toBe('setting/npcs/Captain Varo.md');
    expect(r.entity.properties.status).toBe('alive');
    expect(r.entity.aliases).toContain('Varo');
    expect(r.relations.some((x) => x.label === 'MEMBER_OF' && x.other.name === 'Red Hand')).toBe(true);
    expect(textOf(res)).toContain('setting/npcs/Captain Varo.md');
    expect(JSON.parse(textOf(res).split('\n').slice(1).join('\n'))).toEqual(res.structuredContent);
  });

  it('get_entity with layer and session gives the state at that session', async () => {
    const before = await h.ok<{ entity: { properties: Record<string, unknown> }; state: { lifecycle: string } }>('get_entity', { name: 'Captain Varo', layer: 'campaign', session: 4 });
    expect(before.entity.properties.status).toBe('alive');
    const after = await h.ok<{ entity: { properties: Record<string, unknown> }; state: { lifecycle: string; changed_by_events: Array<{ property: string; path: string }> } }>('get_entity', { name: 'Captain Varo', layer: 'campaign', session: 5 });
    expect(after.entity.properties.status).toBe('dead');
    expect(after.state.lifecycle).toBe('destroyed');
    expect(after.state.changed_by_events.find((c) => c.property === 'status')?.path).toBe('campaign/sessions/09 The Death of Captain Varo.md');
  });

  it('get_relationships traverses by type, depth and direction', async () => {
    const r = await h.ok<{ root: Summary; steps: Array<{ type: string; depth: number }>; entities: Summary[] }>('get_relationships', { name: 'Millbrook', type: 'PART_OF', depth: 3, direction: 'out' });
    expect(r.root.name).toBe('Millbrook');
    expect(r.entities.map((e) => e.name)).toEqual(expect.arrayContaining(['Greyhollow Hills', 'The Westlands']));
    expect(Math.max(...r.steps.map((s) => s.depth))).toBe(2);
    const incoming = await h.ok<{ entities: Summary[] }>('get_relationships', { name: 'Millbrook', direction: 'incoming' });
    expect(incoming.entities.map((e) => e.name)).toContain('Tobin Reed');
  });

  it('find_path finds a chain and says when there is none', async () => {
    const r = await h.ok<{ found: boolean; entities: Summary[] }>('find_path', { from: 'Captain Varo', to: 'Westport' });
    expect(r.found).toBe(true);
    expect(r.entities[0]!.name).toBe('Captain Varo');
    expect(r.entities.at(-1)!.name).toBe('Westport');
    const none = await h.ok<{ found: boolean }>('find_path', { from: 'Captain Varo', to: 'Westport', max_depth: 1 });
    expect(none.found).toBe(false);
  });

  it('list_entities filters by type, layer and tag', async () => {
    const npcs = await h.ok<{ entities: Summary[]; total: number }>('list_entities', { type: 'npc' });
    expect(npcs.total).toBe(npcs.entities.length);
    expect(npcs.entities.every((e) => e.type === 'npc')).toBe(true);
    const tagged = await h.ok<{ entities: Summary[] }>('list_entities', { tag: 'villain' });
    expect(tagged.entities.map((e) => e.name)).toContain('Captain Varo');
    const campaign = await h.ok<{ entities: Summary[] }>('list_entities', { layer: 'campaign' });
    expect(campaign.entities.every((e) => e.layer === 'campaign')).toBe(true);
  });

  it('get_current_state gives lifecycle and provenance per session', async () => {
    const s = await h.ok<{ lifecycle: string; destroyed: { path: string; session: number } | null; base_path: string }>('get_current_state', { name: 'Millbrook', layer: 'campaign', session: 6 });
    expect(s.lifecycle).toBe('destroyed');
    expect(s.destroyed?.path).toBe('campaign/sessions/05 The Burning of Millbrook.md');
    expect(s.base_path).toBe('setting/settlements/Millbrook.md');
    const early = await h.ok<{ lifecycle: string }>('get_current_state', { name: 'Millbrook', layer: 'campaign', session: 1 });
    expect(early.lifecycle).toBe('exists');
  });

  it('get_timeline lists events in order, by entity and session range', async () => {
    const all = await h.ok<{ events: Array<{ session: number | null; name: string }>; total: number }>('get_timeline', { layer: 'campaign' });
    expect(all.total).toBeGreaterThanOrEqual(12);
    const sessions = all.events.map((e) => e.session ?? Infinity);
    expect(sessions).toEqual([...sessions].sort((a, b) => a - b));
    const varo = await h.ok<{ events: Array<{ name: string; participants: string[] }> }>('get_timeline', { layer: 'campaign', entity: 'Captain Varo' });
    expect(varo.events.map((e) => e.name)).toContain('The Death of Captain Varo');
    const range = await h.ok<{ events: Array<{ session: number }> }>('get_timeline', { layer: 'campaign', from_session: 2, to_session: 3 });
    expect(range.events.length).toBeGreaterThan(0);
    expect(range.events.every((e) => e.session >= 2 && e.session <= 3)).toBe(true);
  });

  it('check_consistency returns evidence lines mentioning the claim, not a verdict', async () => {
    const r = await h.ok<{ properties: Array<{ property: string }>; state: Array<{ property: string; value: unknown }>; events: Array<{ name: string }>; note: string }>(
      'check_consistency', { entity: 'Captain Varo', claim: 'Varo is still alive and leads raids in session 7', layer: 'campaign' });
    expect(r.properties.map((p) => p.property)).toContain('status');
    expect(r.events.map((e) => e.name)).toContain('The Death of Captain Varo');
    expect(r.note).toMatch(/evidence/i);
    expect(r).not.toHaveProperty('verdict');
  });

  it('get_schema returns types, relationships and layers', async () => {
    const s = await h.ok<{ entity_types: Array<{ name: string }>; relationship_types: Array<{ name: string }>; layers: Array<{ name: string; canonical: boolean }> }>('get_schema');
    expect(s.entity_types.map((t) => t.name)).toEqual(expect.arrayContaining(['npc', 'settlement', 'event']));
    expect(s.relationship_types.map((t) => t.name)).toContain('MEMBER_OF');
    expect(s.layers).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'campaign', canonical: false })]));
  });

  it('load_scene_context bundles location, parents, cast, relations and events', async () => {
    const s = await h.ok<{
      location: { entity: Summary }; parents: Array<{ entity: Summary }>; present: Array<{ entity: Summary }>;
      characters: Array<{ entity: Summary; factions: Array<{ other: string }>; recent_events: Array<{ name: string }> }>;
      between: unknown[]; pc: { entity: Summary } | null;
    }>('load_scene_context', { location: 'Millbrook', characters: ['Captain Varo', 'Kira Ashwood'], pc: 'Tobin Reed' });
    expect(s.location.entity.name).toBe('Millbrook');
    expect(s.parents.map((p) => p.entity.name)).toEqual(['Greyhollow Hills', 'The Westlands']);
    expect(s.present.map((p) => p.entity.name)).toContain('Tobin Reed');
    const varo = s.characters.find((c) => c.entity.name === 'Captain Varo')!;
    expect(varo.factions.map((f) => f.other)).toContain('Red Hand');
    expect(varo.recent_events.map((e) => e.name)).toContain('The Death of Captain Varo');
    expect(s.pc?.entity.name).toBe('Tobin Reed');
  });

  it('get_problems reports counts and items', async () => {
    const p = await h.ok<{ problems: unknown[]; counts: Record<string, number>; total: number }>('get_problems');
    expect(p.total).toBe(p.counts.error! + p.counts.warning! + p.counts.info!);
  });

  it('query_graph runs read-only Cypher', async () => {
    const r = await h.ok<{ rows: Array<Record<string, unknown>> }>('query_graph', { cypher: "MATCH (n:Entity {type:'npc'})-[:MEMBER_OF]->(f:Entity) WHERE n.name = 'Captain Varo' RETURN f.name AS faction" });
    expect(r.rows).toEqual([{ faction: 'Red Hand' }]);
  });
});

describe('resources and prompts', () => {
  it('lists every entity as lore://entity/{layer}/{name} and reads its note as markdown', async () => {
    const { resources } = await h.client.listResources();
    const varo = resources.find((r) => r.name === 'Captain Varo')!;
    expect(varo.uri).toBe('lore://entity/setting/Captain%20Varo');
    const read = await h.client.readResource({ uri: varo.uri });
    const c = read.contents[0] as { text: string; mimeType: string };
    expect(c.mimeType).toBe('text/markdown');
    expect(c.text).toContain('title: Captain Varo');
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('lore://entity/{layer}/{name}');
  });

  it('refuses a resource name that leaves the vault', async () => {
    await expect(h.client.readResource({ uri: 'lore://entity/setting/..%2F..%2Fetc%2Fpasswd' })).rejects.toThrow(/not an entity name/);
  });

  it('offers a session-prep prompt', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('session_prep');
    const p = await h.client.getPrompt({ name: 'session_prep', arguments: { layer: 'campaign', session: '13' } });
    const text = (p.messages[0]!.content as { text: string }).text;
    expect(text).toContain('get_timeline');
    expect(text).toContain('to_session: 12');
  });
});

describe('errors keep the server serving', () => {
  it('an unknown entity is an isError result naming close matches, then the next call works', async () => {
    const r = await h.call('get_entity', { name: 'Captain Vero' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/no entity named "Captain Vero".*Captain Varo/);
    expect((await h.call('get_entity', { name: 'Captain Varo' })).isError).toBeFalsy();
  });
});

export { READ_TOOLS, WRITE_TOOLS };
