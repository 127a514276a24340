/**
 * bench area `export` (issue 17): the world at a session for the players, and
 * its exports, on the generated vault (10k notes; --quick: 1k), from the
 * files-only model the CLI uses:
 *   players_view_ms   worldAt(players): visibility applied to every note, edge and body {p50, p95, n}
 *   gm_view_ms        worldAt(gm), the same without redaction
 *   export_site_ms / export_site_write_ms / site_files / site_mb
 *   export_lorebook_ms, export_json_ms, lorebook_mb
 *   players_view_switch_ms {p50, p95, n, first}, players_view_switch_cold_ms {p50, p95, n, first},
 *   players_view_switch_cached_ms, players_view_switch_fresh_first_ms {wall, cpu, idle} (a fresh child process),
 *   players_view_entities / players_view_total:
 *                    the app's players' view switch on a real core through the app's handlers (bench/players-view.ts)
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rm } from 'node:fs/promises';
import { exportWorld, writeExport } from '../main/export/index.js';
import { timelineInputFromModel } from '../main/timeline/service.js';
import { loadVaultModel } from '../main/sync/load-model.js';
import { worldAt } from '../main/visibility/world.js';
import type { generateVault as Gen } from './generate.js';
import { playersViewBench } from './players-view.js';

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), n: s.length };
};

export async function bench(ctx: { quick: boolean; tmpDir: string; generateVault: typeof Gen }): Promise<Record<string, unknown>> {
  const n = ctx.quick ? 1000 : 10000;
  const gen = await ctx.generateVault(join(ctx.tmpDir, 'vault'), { entities: n });
  const vault = await loadVaultModel(gen.dir);
  const input = timelineInputFromModel(vault.model, vault.vaultDir);
  const rounds = ctx.quick ? 2 : 5;
  const time = (fn: () => unknown) => { const t0 = performance.now(); fn(); return performance.now() - t0; };
  const players: number[] = [], gm: number[] = [];
  for (let i = 0; i < rounds; i++) {
    players.push(time(() => worldAt(input, { audience: 'players' })));
    gm.push(time(() => worldAt(input, { audience: 'gm' })));
  }
  let t0 = performance.now();
  const site = exportWorld(input, { format: 'site', audience: 'players' });
  const siteMs = performance.now() - t0;
  t0 = performance.now();
  await writeExport(site, join(ctx.tmpDir, 'site'));
  const writeMs = performance.now() - t0;
  t0 = performance.now();
  const book = exportWorld(input, { format: 'lorebook', audience: 'players' });
  const bookMs = performance.now() - t0;
  t0 = performance.now();
  exportWorld(input, { format: 'json', audience: 'players' });
  const jsonMs = performance.now() - t0;
  await rm(join(ctx.tmpDir, 'site'), { recursive: true, force: true });
  const switching = await playersViewBench(ctx).catch((e: unknown) => ({ players_view_error: e instanceof Error ? e.message : String(e) }));
  const mb = (s: number) => Math.round((s / 1048576) * 10) / 10;
  return {
    notes: n,
    players_view_ms: stat(players),
    gm_view_ms: stat(gm),
    export_site_ms: Math.round(siteMs),
    export_site_write_ms: Math.round(writeMs),
    site_files: site.files.length,
    site_mb: mb(site.files.reduce((s, f) => s + Buffer.byteLength(f.content), 0)),
    export_lorebook_ms: Math.round(bookMs),
    lorebook_mb: mb(Buffer.byteLength(book.files[0]!.content)),
    export_json_ms: Math.round(jsonMs),
    ...switching,
  };
}
