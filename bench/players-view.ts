/**
 * The players' view switch (issue 17, point 2; part of the `export` area): the 10k scrubbing world
 * (bench/scrub-world.ts: the sample world's schema, where NPCs are GM-only by default; 200 events over 67
 * sessions, every tenth made GM-only here) opened in a real core. One switch = what the app does when the GM
 * presses `v`: view-set players at the timeline's (layer, session), then the reads the renderer refetches —
 * entity-list, graph-snapshot, problems-list, canvas-importance, timeline-sessions, timeline-graph-at and the
 * open entity — answered by the core's players' view.
 *   players_view_switch_ms        {p50, p95, n}: a switch to a session not shown before (the lens is built)
 *   players_view_switch_cached_ms {p50, p95, n}: switching back and forth to the same session
 *   players_view_first_switch_ms  the first switch after the vault opened (also builds the players' timeline
 *                                 without the GM-only events)
 *   players_view_entities         entities the players see (of players_view_total)
 *
 *   node bin/run-ts.mjs bench/players-view.ts [--quick]   prints the JSON
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openCore, type CoreHost } from '../main/core/index.js';
import { generateScrubWorld } from './scrub-world.js';

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), n: s.length };
};

/** what the renderer asks right after a switch, through the same core calls as the contract's handlers */
async function switchTo(core: CoreHost, session: number | null, open: string): Promise<number> {
  const t0 = performance.now();
  core.setAudience('players', { layer: 'campaign', session });
  const view = core.view({ audience: 'players' });
  const tl = core.playersTimeline(session);
  await Promise.all([
    view.list({ limit: 100_000 }), view.graph(), Promise.resolve(view.problems()), view.importance(), view.getEntity(open),
    Promise.resolve(tl.sessions('campaign')), Promise.resolve(session === null ? null : tl.frame('campaign', session)),
  ]);
  return performance.now() - t0;
}

export async function playersViewBench(ctx: { quick: boolean; tmpDir: string }): Promise<Record<string, unknown>> {
  const n = ctx.quick ? 1000 : 10_000;
  const dir = join(ctx.tmpDir, 'players-world');
  const gen = await generateScrubWorld(dir, { entities: n, events: 200, sessions: 67 });
  const sessions = join(dir, 'campaign', 'sessions');
  readdirSync(sessions).filter((f) => f.endsWith('.md')).sort().forEach((f, i) => {
    if (i % 10 !== 9) return;
    const p = join(sessions, f);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/^---\n/, '---\nvisibility: gm\n'));
  });
  const core = await openCore({ vaultDir: dir, dbDir: mkdtempSync(join(ctx.tmpDir, 'db-')) });
  try {
    // the GM was looking at the world (timeline and importance computed) before switching
    await core.importance();
    core.problems();
    core.timeline.frame('campaign', 30);
    const open = (await core.list({ type: 'settlement', limit: 1 })).items[0]!.id;
    const first = await switchTo(core, 30, open);
    const fresh: number[] = [], cached: number[] = [];
    const rounds = ctx.quick ? 4 : 10;
    for (let i = 0; i < rounds; i++) {
      core.setAudience('gm');
      fresh.push(await switchTo(core, 31 + i, open));
      core.setAudience('gm');
      cached.push(await switchTo(core, 31 + i, open));
    }
    const seen = (await core.view({ audience: 'players', session: null }).list({ limit: 100_000 })).total;
    core.setAudience('gm');
    return {
      players_view_switch_ms: stat(fresh), players_view_switch_cached_ms: stat(cached), players_view_first_switch_ms: Math.round(first),
      players_view_entities: seen, players_view_total: (await core.list({ limit: 1, placeholders: true })).total, players_view_events: gen.events,
    };
  } finally {
    await core.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tmp = mkdtempSync(join(tmpdir(), 'lorecraft-bench-players-'));
  try {
    console.log(JSON.stringify(await playersViewBench({ quick: process.argv.includes('--quick'), tmpDir: tmp })));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
