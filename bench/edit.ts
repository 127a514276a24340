/**
 * Write-back bench (called by bench/run.ts; figures in milliseconds):
 * - edit_roundtrip_ms: setProperty issued -> file written atomically -> graph
 *   (model + Kùzu) updated -> ChangeEvent delivered, on the 10k-entity vault
 *   (1k with quick), with the watcher running as in the app.
 * - rename_refactor_ms: rename of an entity referenced by 100 files (every
 *   reference rewritten, graph updated).
 * The round trip is measured twice: without a watcher, then with the watcher
 * running as in the app.
 * Run directly: node bin/run-ts.mjs bench/edit.ts [--quick]
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ChangeEvent } from '../shared/types.js';
import type { Editor } from '../main/edit/commands.js';

export interface EditBenchContext {
  quick: boolean;
  tmpDir: string;
  /** bench/generate.ts's generateVault (imported when not given) */
  generateVault?: (dir: string, opts: { entities: number }) => Promise<unknown>;
}

export interface EditBenchResult {
  entities: number;
  /** with the watcher running, as in the app */
  edit_roundtrip_ms: { p50: number; p95: number; n: number };
  /** the same without a watcher (CLI, MCP stdio without the app) */
  edit_roundtrip_nowatch_ms: { p50: number; p95: number; n: number };
  rename_refactor_ms: { p50: number; p95: number; n: number; referrers: number };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
}

function notesUnder(dir: string, out: string[] = [], root = dir): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) notesUnder(p, out, root);
    else if (e.name.endsWith('.md')) out.push(relative(root, p).split('\\').join('/'));
  }
  return out;
}

/** A valid value for a property, varying with i. */
function valueFor(p: { type: string; values?: Array<string | number | boolean>; items?: string }, i: number): unknown {
  switch (p.type) {
    case 'enum': return p.values?.length ? p.values[i % p.values.length] : undefined;
    case 'integer': return i;
    case 'number': return i + 0.5;
    case 'boolean': return i % 2 === 0;
    case 'date': return `1203-0${1 + (i % 9)}-1${i % 10}`;
    case 'string': return `value ${i}`;
    default: return undefined;
  }
}

export async function bench(ctx: EditBenchContext): Promise<EditBenchResult> {
  const n = ctx.quick ? 1000 : 10000;
  const dir = join(ctx.tmpDir, 'edit-vault');
  mkdirSync(dir, { recursive: true });
  const generate = ctx.generateVault ?? (await import('./generate.js')).generateVault;
  await generate(dir, { entities: n });

  // the rename target, referenced from the bodies of 100 existing notes
  const notes = notesUnder(dir);
  const referrers = notes.slice(0, 100);
  writeFileSync(join(dir, 'Bench Target.md'), '# Bench Target\n');
  for (const p of referrers) writeFileSync(join(dir, p), readFileSync(join(dir, p), 'utf8') + '\nSee [[Bench Target|the target]].\n');

  const { openCore } = await import('../main/core/index.js');
  const { createEditor } = await import('../main/edit/commands.js');
  const host = await openCore({ vaultDir: dir, watch: false });
  // measure the steady state: the full-text index is built in the background after open
  await host.searchReady();
  const ed: Editor = createEditor(host);
  let delivered: ChangeEvent | null = null;
  const off = host.onChange((e) => { if (e.origin === 'app') delivered = e; });
  try {
    const m = host.engine.model;
    const schema = m.schema();
    // typed entities with an editable property, else body edits
    const refSet = new Set(referrers);
    const targets: Array<{ name: string; field: string | null; prop: { type: string; values?: Array<string | number | boolean> } | null }> = [];
    for (const e of m.entities()) {
      // the rename target and its referrers stay as they are (a body edit would drop their link)
      if (e.placeholder || !e.path || e.path === 'Bench Target.md' || refSet.has(e.path)) continue;
      const def = schema.entity_types.find((t) => t.name === e.type);
      const prop = def?.properties.find((p) => valueFor(p, 0) !== undefined && (p.type !== "enum" || (p.values?.length ?? 0) > 1)) ?? null;
      targets.push({ name: e.id, field: prop?.name ?? null, prop });
      if (targets.length >= 400) break;
    }
    const rounds = ctx.quick ? 40 : 200;
    let k = 0;
    const measure = async (): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < rounds; i++, k++) {
        const t = targets[(k * 37) % targets.length]!;
        delivered = null;
        const t0 = performance.now();
        const res = t.field && t.prop ? await ed.setProperty(t.name, t.field, valueFor(t.prop, k + 1)) : await ed.replaceBody(t.name, `Edited ${k}.\n`);
        const dt = performance.now() - t0;
        // counts only when the write produced a delivered event (a no-op would not)
        if (res.changed.length && delivered) times.push(dt);
      }
      return times;
    };
    const quiet = await measure();
    // as in the app: the watcher runs (and sees every write the editor makes)
    await host.watch();
    const times = await measure();
    const renames: number[] = [];
    const names = ['Bench Target', 'Bench Target Renamed'];
    const rn = ctx.quick ? 4 : 10;
    for (let i = 0; i < rn; i++) {
      const t0 = performance.now();
      const res = await ed.rename(names[i % 2]!, names[(i + 1) % 2]!);
      const dt = performance.now() - t0;
      if (res.changed.length >= referrers.length) renames.push(dt);
    }
    return {
      entities: m.counts().entities,
      edit_roundtrip_ms: { p50: pct(times, 50), p95: pct(times, 95), n: times.length },
      edit_roundtrip_nowatch_ms: { p50: pct(quiet, 50), p95: pct(quiet, 95), n: quiet.length },
      rename_refactor_ms: { p50: pct(renames, 50), p95: pct(renames, 95), n: renames.length, referrers: referrers.length },
    };
  } finally {
    off();
    ed.dispose();
    await host.close();
  }
}

if (process.argv[1] && /bench[\\/]edit\.ts$/.test(process.argv[1])) {
  const tmp = mkdtempSync(join(tmpdir(), 'lc-bench-edit-'));
  try {
    process.stdout.write(JSON.stringify(await bench({ quick: process.argv.includes('--quick'), tmpDir: tmp }), null, 2) + '\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
