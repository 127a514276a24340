/**
 * Oracle for the players' view's shared and lazy answers (issue 17): what the view answers at every session —
 * the lens's visible entities and relationships, the list, the canvas graph, the problems, the timeline's
 * graph, state and overlay — equals what the plain eager computation gives (written out here as the code was
 * before relationships, summaries, list order and problem names were shared across sessions and the overlay
 * stopped redacting properties it does not read). On the canary fixture (a GM-only note revealed at session 3)
 * and a generated vault (GM-only NPCs with body links, GM-only events, a revealed NPC with a secret block).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LINK_REL, type EntitySummary, type Problem, type RelationshipRecord } from '../../shared/types.js';
import { findLinks, parseLink } from '../../shared/wikilinks.js';
import { generateScrubWorld } from '../../bench/scrub-world.js';
import { redactBody, visibilityRules } from '../visibility/rules.js';
import { buildTimelineIndex, type TimelineIndex } from '../timeline/timeline-index.js';
import { timelineInputFromModel } from '../timeline/service.js';
import { eventSettings } from '../timeline/events.js';
import { hiddenEvents, lensAt, type LensSource } from '../visibility/lens.js';
import { overlayOf } from '../app/handlers/timeline.js';
import { openCore, type CoreHost } from './index.js';
import type { PlayersLenses } from './audience.js';
import { summaryOf } from './lookup.js';

const FIXTURE = resolve(import.meta.dirname, '../../e2e/vaults/player-secrets');
const key = (r: { from: string; type: string; to: string }) => `${r.from}\u0000${r.type}\u0000${r.to}`;

/** the players' lens at (layer, session), computed eagerly from the notes and the players' index */
function eager(core: CoreHost, ix: TimelineIndex, layer: string, session: number | null) {
  const m = core.engine.model;
  const rules = visibilityRules(m.config(), m.schema());
  const g = ix.graphAt(layer, session);
  const revealed = new Set<string>();
  for (const ev of ix.timeline(layer)) {
    if (ev.session === null || (session !== null && ev.session > session)) continue;
    for (const c of ev.consequences) if (c.kind === 'reveal' && c.valid && c.entity && !Array.isArray(c.value)) revealed.add(c.entity);
  }
  const gmNote = (id: string) => { const r = m.entity(id); return !!r && !r.placeholder && rules.noteVisibility(r) === 'gm'; };
  const noteVisible = (id: string) => !gmNote(id) || revealed.has(id);
  const bySource = new Map([...m.entities()].filter((e) => e.path).map((e) => [e.path!, e]));
  const survives = (r: RelationshipRecord): boolean => {
    const from = bySource.get(r.source), target = m.entity(r.to);
    if (!from || !target) return false;
    const body = redactBody(from.body);
    if (body === from.body) return true;
    const files = target.path ? [target.path.replace(/\.md$/i, ''), target.path.replace(/^.*\//, '').replace(/\.md$/i, '')] : [];
    const names = new Set([target.name, ...target.aliases, ...files].map((n) => n.toLowerCase()));
    return findLinks(body).some((x) => { const l = parseLink(x.inner); return l !== null && (names.has(l.name.toLowerCase()) || names.has(l.target.replace(/\.md$/i, '').toLowerCase())); });
  };
  const declared = (r: RelationshipRecord): boolean => {
    const from = bySource.get(r.source);
    if (!from || !noteVisible(from.id) || rules.isSecretField(from.type, r.field)) return false;
    return r.type === LINK_REL && r.field === null ? survives(r) : true;
  };
  const byKey = new Map<string, RelationshipRecord[]>();
  for (const r of m.edges()) byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
  const holding: Array<{ from: string; to: string; type: string; field: string | null; origin: 'base' | 'event' }> = [];
  const referenced = new Set<string>();
  for (const rel of g.relationships) {
    let field: string | null = null;
    if (rel.origin === 'base') {
      const recs = byKey.get(key(rel)) ?? [];
      const first = recs.find(declared);
      if (recs.length && !first) continue;
      field = first?.field ?? null;
    }
    holding.push({ from: rel.from, to: rel.to, type: rel.type, field, origin: rel.origin });
    referenced.add(rel.from); referenced.add(rel.to);
  }
  const visible = new Set<string>();
  for (const st of g.entities) {
    if (st.lifecycle === 'not-yet-created') continue;
    const rec = m.entity(st.id);
    if (rec?.placeholder ? !referenced.has(st.id) : !noteVisible(st.id)) continue;
    visible.add(st.id);
  }
  const relationships = holding.filter((r) => visible.has(r.from) && visible.has(r.to));
  const summary = (id: string): EntitySummary | null => {
    const rec = m.entity(id);
    if (rec) return summaryOf(rec);
    const st = g.entities.find((e) => e.id === id);
    return st ? { id, name: st.name, type: st.type, layer: st.layer, path: null, placeholder: true, tags: [] } : null;
  };
  const sorted = [...visible].map(summary).filter((e): e is EntitySummary => !!e).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const edges = [...m.edges()].filter((r) => visible.has(r.from) && visible.has(r.to) && declared(r)).map((r) => ({ from: r.from, to: r.to, type: r.type, field: r.field }));
  const problems = (all: Problem[], hidesProperty: (id: string, p: string) => boolean) => {
    const hidden = [...m.entities()].filter((e) => !visible.has(e.id)).flatMap((e) => [e.name, ...e.aliases]).filter((n) => n.length >= 3).map((n) => n.toLowerCase());
    return all.filter((p) => {
      const id = p.entityId ?? (p.file ? m.entityIdOfPath(p.file) : undefined);
      if (p.file && !id && /\.md$/i.test(p.file)) return false;
      if (id && !visible.has(id)) return false;
      if (id && p.field && hidesProperty(id, p.field)) return false;
      return !hidden.some((n) => p.message.toLowerCase().includes(n));
    });
  };
  const holds = new Set(relationships.map(key));
  return { g, visible, relationships, sorted, nodes: [...visible].map(summary), edges, problems, held: g.relationships.filter((r) => holds.has(key(r))) };
}

/** what a lens reads of the core's model (as PlayersLenses gives it) */
function source(core: CoreHost): LensSource {
  const m = core.engine.model;
  return { config: m.config(), schema: m.schema(), entity: (id) => m.entity(id), entities: () => m.entities(), relationships: () => m.edges() };
}

/** the players' timeline built from scratch: the model's event notes less the GM-only ones, compiled again */
function scratchIndex(core: CoreHost): TimelineIndex {
  const m = core.engine.model;
  const input = timelineInputFromModel(m, core.vaultDir);
  const events = [...input.events];
  const hidden = hiddenEvents({ config: m.config(), schema: m.schema(), entity: (id) => m.entity(id) }, 'players', events.map((e) => e.id));
  return buildTimelineIndex({ ...input, events: events.filter((e) => !hidden.has(e.id)) });
}

async function check(core: CoreHost, layer: string): Promise<number> {
  const lenses = (core as unknown as { players: PlayersLenses }).players;
  const sessions = [...core.timeline.sessions(layer).map((s) => s.session), null, 0];
  let compared = 0;
  // the players' index (derived from the GM's: TimelineIndex.without) answers as one compiled from scratch
  const ix = scratchIndex(core);
  const shared = lenses.playersIndex();
  expect(shared.sessions(layer)).toEqual(ix.sessions(layer));
  expect(shared.timeline(layer)).toEqual(ix.timeline(layer));
  expect(shared.problems()).toEqual(ix.problems());
  // derived again once the GM's index has made its graph at every session (graphAt's `like`: the states both share
  // taken from the GM's graph), asked from the last session down (no earlier snapshot of its own to step on from)
  const gm = core.timeline.index();
  for (const session of sessions) gm.graphAt(layer, session);
  const m = core.engine.model;
  const evType = eventSettings(m.schema()).type;
  const again = gm.without(hiddenEvents({ config: m.config(), schema: m.schema(), entity: (id) => m.entity(id) }, 'players',
    [...m.entities()].filter((e) => e.type === evType && !e.placeholder).map((e) => e.id)));
  expect(again).not.toBeNull();
  for (const session of [...sessions].reverse()) expect(again!.graphAt(layer, session), `derived, session ${session}`).toEqual(ix.graphAt(layer, session));
  for (const session of sessions) {
    const at = `session ${session}`;
    expect(shared.graphAt(layer, session), at).toEqual(ix.graphAt(layer, session));
    expect(shared.frame(layer, session), at).toEqual(ix.frame(layer, session));
    const want = eager(core, ix, layer, session);
    const view = core.view({ audience: 'players', layer, session }) as ReturnType<CoreHost['view']> & { lens: ReturnType<PlayersLenses['lens']> };
    expect([...view.lens.visible], at).toEqual([...want.visible]);
    expect(view.lens.relationships, at).toEqual(want.relationships);
    // a graph graphAt did not make (no shared positions: entityPositions undefined) gives the same lens
    const copied = lensAt(source(core), { ...ix, graphAt: (l, s) => ({ ...ix.graphAt(l, s) }) }, { audience: 'players', layer, session });
    expect([...copied.visible], at).toEqual([...want.visible]);
    expect(copied.relationships, at).toEqual(want.relationships);
    expect((await view.list({ placeholders: true })).items, at).toEqual(want.sorted);
    expect((await view.list({})).items, at).toEqual(want.sorted.filter((e) => !e.placeholder));
    expect(await view.graph(), at).toEqual({ nodes: want.nodes, edges: want.edges });
    expect(view.problems(), at).toEqual(want.problems(core.problems(), (id, p) => view.lens.hidesProperty(id, p)));
    const tl = core.playersTimeline(session);
    const g = tl.graphAt(layer, session);
    expect(g.relationships, at).toEqual(want.held);
    // the overlay from the lifecycles alone equals the one from the redacted graph
    expect(overlayOf(tl, layer, session), at).toEqual(overlayOf({ frame: tl.frame, graphAt: tl.graphAt, timeline: tl.timeline }, layer, session));
    for (const [i, id] of [...want.visible].entries()) {
      if (i % 5) continue;
      const st = tl.stateAt(id, layer, session)!;
      expect(st.relationships, `${at} ${id}`).toEqual(st.lifecycle === 'not-yet-created' ? [] : want.held.filter((r) => r.from === id || r.to === id));
    }
    compared += want.visible.size;
  }
  return compared;
}

let dir = '';
const cores: CoreHost[] = [];
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'lorecraft-players-oracle-')); });
afterAll(async () => {
  for (const c of cores) await c.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the players' view equals its eager computation at every session", () => {
  it('on the canary fixture (a GM-only note revealed at session 3)', async () => {
    await cp(FIXTURE, join(dir, 'fixture'), { recursive: true });
    const core = await openCore({ vaultDir: join(dir, 'fixture'), dbDir: join(dir, 'fixture-db'), watch: false });
    cores.push(core);
    expect(await check(core, 'campaign')).toBeGreaterThan(0);
  }, 120_000);

  it('on a generated vault (GM-only NPCs and events, a revealed NPC whose body hides a link)', async () => {
    const v = join(dir, 'generated');
    await generateScrubWorld(v, { entities: 300, events: 40, sessions: 12 });
    const sessions = join(v, 'campaign', 'sessions');
    const files = (await readdir(sessions)).filter((f) => f.endsWith('.md')).sort();
    for (const [i, f] of files.entries()) {
      if (i % 10 !== 9) continue;
      const p = join(sessions, f);
      await writeFile(p, (await readFile(p, 'utf8')).replace(/^---\n/, '---\nvisibility: gm\n'));
    }
    // Npc 3 (GM-only, as every NPC) is revealed at session 6; a link in a secret block of its body stays hidden
    const npc = join(v, 'setting', 'npcs', 'Npc 3.md');
    await writeFile(npc, (await readFile(npc, 'utf8')).trimEnd() + '\n%% also [[Town 1]] %%\nAnd [[Town 2]].\n');
    await writeFile(join(sessions, 'Reveal.md'), '---\ntype: event\nsession: 6\nconsequences:\n  - { reveals: "[[Npc 3]]" }\n---\nThe party learns of Npc 3.\n');
    // a note of many links (lensBase groups a note's records by target above GROUP_FROM): the same targets by field and
    // by body, links kept and links in secret blocks, to visible notes, to a GM-only note revealed later and to one never
    const hub = join(v, 'setting', 'factions', 'Faction 0.md');
    const towns = Array.from({ length: 24 }, (_, i) => `[[Town ${i}]]`);
    await writeFile(hub, (await readFile(hub, 'utf8')).replace(/^operates_in: .*$/m, `operates_in: [${towns.slice(0, 6).map((t) => `"${t}"`).join(', ')}]`).trimEnd()
      + `\nTrades with ${towns.join(', ')}.\n%% really ${towns.slice(4, 12).join(' and ')}, [[Npc 3]] and [[Npc 5]] %%\nAlso [[Town 2]], [[Npc 3]], [[Nowhere Hall]].\n> [!secret]\n> [[Town 30]], [[Npc 7]] and [[Hidden Hall]]\n`);
    // placeholders: one a visible link names, one only a GM-only note (revealed later) names, one only a secret block
    const npc5 = join(v, 'setting', 'npcs', 'Npc 5.md');
    await writeFile(npc5, `${(await readFile(npc5, 'utf8')).trimEnd()}\nMet at [[Gm Hall]].\n`);
    await writeFile(npc, `${(await readFile(npc, 'utf8')).trimEnd()}\nOwns [[Reveal Hall]].\n`);
    const core = await openCore({ vaultDir: v, dbDir: join(dir, 'generated-db'), watch: false });
    cores.push(core);
    const revealedAt6 = core.view({ audience: 'players', layer: 'campaign', session: 6 }) as unknown as { lens: { visible: Set<string>; relationships: Array<{ from: string; to: string }> } };
    const id = core.resolveEntity('Npc 3')!.id;
    expect(revealedAt6.lens.visible.has(id)).toBe(true);
    expect(revealedAt6.lens.relationships.some((r) => r.from === id)).toBe(true);
    expect(await check(core, 'campaign')).toBeGreaterThan(0);
  }, 300_000);

  it.each([
    ['', Infinity],
    [', a big world\'s lean preparation (no lens base or answers ahead: PREPARE_RELATIONSHIPS_MAX)', 0],
  ])('after edits of visibility, type, body, aliases, secret fields and reveals, each prepared ahead (PlayersLenses.prepare)%s', async (_, max) => {
    const v = join(dir, `edited-${max}`);
    await cp(FIXTURE, v, { recursive: true });
    const core = await openCore({ vaultDir: v, dbDir: join(dir, `edited-${max}-db`), watch: false });
    cores.push(core);
    const lenses = (core as unknown as { players: PlayersLenses }).players;
    lenses.prepareRelationshipsMax = max;
    const edit = async (path: string, f: (t: string) => string) => {
      const p = join(v, path);
      await writeFile(p, f(await readFile(p, 'utf8')));
    };
    /** the GM's list: every entity by name then id, filtered (it reads the order the players' view shares) */
    const gmList = async () => {
      const all = [...core.engine.model.entities()].map(summaryOf).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
      expect((await core.list({ placeholders: true })).items).toEqual(all);
      expect((await core.list({})).items).toEqual(all.filter((e) => !e.placeholder));
      expect((await core.list({ type: 'npc', offset: 1, limit: 2 })).items).toEqual(all.filter((e) => !e.placeholder && e.type === 'npc').slice(1, 3));
    };
    const steps: Array<[string, () => Promise<void>]> = [
      ['as opened', async () => undefined],
      // a secret block hiding a body link to a note revealed at session 3: the link stays hidden after the reveal
      ['a secret block in a body', () => edit('setting/npcs/Mira Vell.md', (t) => `${t.trimEnd()}\n%% the ledgers: [[The QREVEALNOTE Vault]] %%\nShe drinks with [[Tam QCONTROLNAME]].\n`)],
      ['note visibility flipped both ways', async () => {
        await edit('setting/npcs/Tam QCONTROLNAME.md', (t) => t.replace('type: npc\n', 'type: npc\nvisibility: gm\n'));
        await edit('setting/npcs/The QSECRETGMNAME Cabal.md', (t) => t.replace('visibility: gm', 'visibility: players'));
      }],
      ['a type changed (its secret fields and default with it)', () => edit('setting/factions/Lantern Guild.md', (t) => t.replace('type: faction', 'type: npc\npatron: "[[Mira Vell]]"'))],
      ['an alias a body link then resolves to', async () => {
        await edit('setting/places/The QREVEALNOTE Vault.md', (t) => t.replace('visibility: gm\n', 'visibility: gm\naliases: [Old Ledger Room]\n'));
        await edit('setting/factions/Lantern Guild.md', (t) => `${t.trimEnd()}\nThe [[Old Ledger Room]] is below.\n`);
      }],
      ['a secret field pointed elsewhere, a secret property set', () => edit('setting/npcs/Mira Vell.md', (t) => t.replace('patron: "[[QSECRETTARGET Shade]]"', 'patron: "[[Tam QCONTROLNAME]]"').replace('status: alive', 'status: alive\nmood: QCONTROLMOOD calm'))],
      ['an event revealing a GM-only note at session 2', () => writeFile(join(v, 'campaign/sessions/02b Rumours.md'), '---\ntype: event\nsession: 2\nconsequences:\n  - { reveals: "[[Tam QCONTROLNAME]]" }\n---\nThe party hears of Tam.\n')],
      ['the reveal made GM-only, the secret block undone', async () => {
        await edit('campaign/sessions/02b Rumours.md', (t) => t.replace('type: event\n', 'type: event\nvisibility: gm\n'));
        await edit('setting/npcs/Mira Vell.md', (t) => t.replace('%% the ledgers: [[The QREVEALNOTE Vault]] %%', 'the ledgers: [[The QREVEALNOTE Vault]]'));
      }],
    ];
    for (const [what, step] of steps) {
      await step();
      await core.sync();
      lenses.prepare(() => 'campaign', 0);
      for (let i = 0; i < 100 && !lenses.prepared(); i++) await sleep(5);
      expect(lenses.prepared(), what).toBe(true);
      await gmList();
      expect(await check(core, 'campaign'), what).toBeGreaterThan(0);
    }
  }, 120_000);
});
