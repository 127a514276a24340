/**
 * The scrubbing bench's world (issue 19): the sample world's schema and
 * layers with `entities` setting notes (regions, settlements, factions, npcs
 * linked by typed fields) and `events` campaign event notes spread over
 * `sessions` sessions, whose consequences kill npcs, destroy settlements and
 * change alliances: every scrubber step changes something on the canvas.
 * Deterministic for a seed.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'sample-world');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

export async function generateScrubWorld(dir: string, opts: { entities?: number; events?: number; sessions?: number; seed?: number } = {}): Promise<{ entities: number; events: number; sessions: number }> {
  const n = opts.entities ?? 1000, nEvents = opts.events ?? 200, nSessions = opts.sessions ?? 67;
  const r = rng(opts.seed ?? 19);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  await mkdir(dir, { recursive: true });
  await copyFile(join(SAMPLE, 'schema.yaml'), join(dir, 'schema.yaml'));
  await copyFile(join(SAMPLE, 'lorecraft.yaml'), join(dir, 'lorecraft.yaml'));
  const nRegions = Math.max(2, Math.round(n * 0.05)), nSettle = Math.round(n * 0.25), nFactions = Math.round(n * 0.15);
  const nNpcs = n - nRegions - nSettle - nFactions;
  const regions = Array.from({ length: nRegions }, (_, i) => `Region ${i}`);
  const settlements = Array.from({ length: nSettle }, (_, i) => `Town ${i}`);
  const factions = Array.from({ length: nFactions }, (_, i) => `Faction ${i}`);
  const npcs = Array.from({ length: nNpcs }, (_, i) => `Npc ${i}`);
  const note = async (folder: string, name: string, fm: string[], body: string) => {
    const d = join(dir, folder);
    await mkdir(d, { recursive: true });
    await writeFile(join(d, `${name}.md`), `---\n${fm.join('\n')}\n---\n${body}\n`);
  };
  const link = (x: string) => `"[[${x}]]"`;
  for (const [i, x] of regions.entries()) await note('setting/regions', x, ['type: region', ...(i ? [`parent_region: ${link(regions[0]!)}`] : [])], `A region.`);
  for (const x of settlements) await note('setting/settlements', x, ['type: settlement', 'size: town', `region: ${link(pick(regions))}`], `A town in the hills.`);
  for (const x of factions) {
    await note('setting/factions', x, ['type: faction', `operates_in: [${link(pick(settlements))}]`, `allies: [${link(pick(factions))}]`], `A faction.`);
  }
  for (const x of npcs) {
    await note('setting/npcs', x, ['type: npc', `location: ${link(pick(settlements))}`, `faction: [${link(pick(factions))}]`,
      `knows: [${link(pick(npcs))}, ${link(pick(npcs))}]`], `Someone who knows [[${pick(npcs)}]].`);
  }
  const dead = new Set<string>(), burned = new Set<string>();
  for (let i = 0; i < nEvents; i++) {
    const session = 1 + Math.floor((i * nSessions) / nEvents);
    const day = String(1 + (i % 28)).padStart(2, '0'), month = String(1 + Math.floor(session / 6) % 12).padStart(2, '0');
    const cons: string[] = [];
    for (let k = 0; k < 3; k++) {
      const roll = r();
      if (roll < 0.4) {
        let v = pick(npcs); while (dead.has(v)) v = pick(npcs);
        dead.add(v); cons.push(`  - { entity: ${v}, property: status, value: dead }`);
      } else if (roll < 0.6) {
        let v = pick(settlements); while (burned.has(v)) v = pick(settlements);
        burned.add(v); cons.push(`  - { entity: ${v}, destroyed: true }`);
      } else {
        cons.push(`  - { entity: ${pick(factions)}, relationship: HOSTILE_TO, add: ${pick(factions)} }`);
      }
    }
    await note('campaign/sessions', `Event ${String(i).padStart(3, '0')}`, ['type: event', `title: Event ${i}`, `session: ${session}`,
      `date_in_world: ${1203 + Math.floor(session / 72)}-${month}-${day}`, `participants: [${link(pick(npcs))}]`,
      `location: ${link(pick(settlements))}`, 'consequences:', ...cons], 'Things happened.');
  }
  return { entities: n, events: nEvents, sessions: nSessions };
}
