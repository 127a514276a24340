/**
 * What one huge note costs (issue 15 point 6), used by bench/run.ts:
 *   huge_note_peak_mb  {note_mb, peak_mb, baseline_mb, extra_mb, multiplier, peak_main_mb, peak_load_process_mb}:
 *                      peak resident memory (VmHWM) of a process that opens a small vault holding one ~9 MB note
 *                      (fresh database, until search is ready), beside the same vault without it; multiplier =
 *                      extra / the note's size. When the graph loads in a load process of its own
 *                      (main/store/kuzu/load-process.ts), peak_mb is the sum of both processes' peaks
 *                      (peak_main_mb + peak_load_process_mb: an upper bound, they do not peak at the same time).
 * Each open runs in its own process (`node bin/run-ts.mjs bench/huge-note.ts --open VAULT DB`), so nothing of
 * the bench's own memory is counted. Each of the two opens runs RUNS times, alternating, and the medians are
 * reported (one open each read 2.3–7.4× across nine runs of the bench: where a collection falls moves the peak by
 * tens of MB); peak_runs_mb and baseline_runs_mb give every run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { prng } from '../shared/prng.js';

const WORDS = 'the old road winds past a ruined tower where travellers tell of lights at night and a merchant who sells maps'.split(' ');

/** A small vault (`notes` notes of ~1 KB) and, with `hugeMb`, one note of that many MB of prose, links and tags. */
export function writeHugeNoteVault(dir: string, hugeMb: number): number {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const rnd = prng(5);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  for (let i = 0; i < 50; i++) {
    writeFileSync(join(dir, `Note ${i}.md`), `---\ntags: [place]\n---\n${Array.from({ length: 150 }, word).join(' ')} [[Note ${(i + 1) % 50}]]\n`);
  }
  if (hugeMb <= 0) return 0;
  const target = hugeMb * 1048576;
  const parts: string[] = ['---\ntitle: The Chronicle\ntags: [history, canon]\n---\n# The Chronicle\n\n'];
  let size = parts[0]!.length;
  let line = 0;
  while (size < target) {
    const ws: string[] = [];
    for (let k = 0; k < 14; k++) ws.push(word());
    ws.push(`[[Note ${line % 50}]]`, 'Élan');
    if (line % 11 === 0) ws.push(`#era/age${line % 9}`);
    const text = (line % 40 === 0 ? `\n## Year ${line}\n\n` : '') + ws.join(' ') + '.\n';
    parts.push(text);
    size += text.length;
    line++;
  }
  writeFileSync(join(dir, 'The Chronicle.md'), parts.join(''));
  return size;
}

/** Peak RSS (MB) of a process that opened `vault` into a fresh `db` and waited for search, and of its load process (0: none). */
function openPeak(root: string, vault: string, db: string): Promise<{ main: number; load: number }> {
  rmSync(db, { recursive: true, force: true });
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'run-ts.mjs'), join(root, 'bench', 'huge-note.ts'), '--open', vault, db], {
      stdio: ['ignore', 'pipe', 'pipe'], cwd: root,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.once('exit', (code) => {
      const m = /PEAK_KB=(\d+) LOAD_PEAK_KB=(\d+)/.exec(out);
      if (code !== 0 || !m) fail(new Error(`huge note open exited ${code}: ${err.slice(-500)}`));
      else ok({ main: Math.round(Number(m[1]) / 1024), load: Math.round(Number(m[2]) / 1024) });
    });
  });
}

/** Opens of each vault (with and without the huge note): the figures are their medians. */
const RUNS = 3;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function hugeNotePeak(root: string, tmp: string, hugeMb = 9): Promise<Record<string, number | number[]>> {
  const vault = join(tmp, 'huge-vault');
  const withNote = join(tmp, 'huge-vault-note');
  const db = join(tmp, 'huge-db');
  writeHugeNoteVault(vault, 0);
  const bytes = writeHugeNoteVault(withNote, hugeMb);
  const bases: number[] = [];
  const huges: Array<{ main: number; load: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const base = await openPeak(root, vault, db);
    bases.push(base.main + base.load);
    huges.push(await openPeak(root, withNote, db));
  }
  for (const d of [vault, withNote, db]) rmSync(d, { recursive: true, force: true });
  const peaks = huges.map((h) => h.main + h.load);
  const peak = median(peaks);
  const baseline = median(bases);
  // the split of the median run (the first of them when two are equal)
  const huge = huges[peaks.indexOf(peak)]!;
  const noteMb = bytes / 1048576;
  return {
    note_mb: Math.round(noteMb * 10) / 10, peak_mb: peak, baseline_mb: baseline, extra_mb: peak - baseline,
    multiplier: Math.round(((peak - baseline) / noteMb) * 10) / 10,
    peak_main_mb: huge.main, peak_load_process_mb: huge.load,
    peak_runs_mb: peaks, baseline_runs_mb: bases,
  };
}

async function openAndReport(vault: string, db: string): Promise<void> {
  const { openCore } = await import('../main/core/index.js');
  const { loadProcessPeaks } = await import('../main/store/kuzu/load-process.js');
  const core = await openCore({ vaultDir: vault, dbDir: db, full: true });
  await core.searchReady();
  await core.engine.settled();
  await core.close();
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  process.stdout.write(`PEAK_KB=${hwm ? hwm[1] : 0} LOAD_PEAK_KB=${Math.round(Math.max(0, ...loadProcessPeaks) / 1024)}\n`);
}

const argv = process.argv.slice(2);
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href && argv[0] === '--open') {
  openAndReport(argv[1]!, argv[2]!).then(() => process.exit(0), (e: unknown) => { process.stderr.write(String(e instanceof Error ? e.stack : e) + '\n'); process.exit(1); });
}
