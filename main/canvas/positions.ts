/**
 * Canvas positions of one vault, kept in `<vault>/.lorecraft/canvas.json`
 * (never in the notes; replaced atomically: temp file + rename). Two maps,
 * keys are entity ids, positions in Cytoscape model coordinates:
 * - `positions`: user pins (a dragged node), fixed for every layout;
 * - `layout`: where the last layout or placement put every other node, so a
 *   reload shows the same picture without laying out again (issue 20.4).
 * Read-merge-write runs in one queue per vault directory, so two quick saves
 * never lose each other's changes. An unreadable file is reported (file and
 * field named) and treated as empty; it is overwritten only by the next save.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasFileZ, type Positions } from '../../shared/contract-canvas.js';
import { atomicWrite } from '../edit/safe-fs.js';

export const CANVAS_FILE = '.lorecraft/canvas.json';

export interface CanvasFile { positions: Positions; layout: Positions }
export interface CanvasChange {
  /** pin (position) or unpin (null) */
  positions?: Record<string, { x: number; y: number } | null>;
  /** drop every other pin first */
  replace?: boolean;
  /** saved layout positions: set (position) or forget (null) */
  layout?: Record<string, { x: number; y: number } | null>;
  /** drop every other saved layout position first (a re-layout saves the whole picture) */
  replaceLayout?: boolean;
}

/** Read a vault's canvas file: `problem` names the file and what is wrong with it. */
export async function readCanvas(vaultDir: string): Promise<CanvasFile & { problem?: string }> {
  const empty = (problem?: string) => ({ positions: {}, layout: {}, ...(problem ? { problem } : {}) });
  let text: string;
  try {
    // read at once, not through the thread pool: a small file the canvas waits for before its first frame, and on
    // an opening vault an async read's four round trips each queued behind the open's own work (measured: answered
    // 1.7 s after it was asked, after the 2.9 MB graph and the problem list)
    text = readFileSync(join(vaultDir, CANVAS_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    return empty(`${CANVAS_FILE}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return empty(`${CANVAS_FILE}: not JSON (${(e as Error).message}); pins ignored`);
  }
  const parsed = CanvasFileZ.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    return empty(`${CANVAS_FILE}: field '${i.path.join('.') || '(root)'}': ${i.message}; pins ignored`);
  }
  return { positions: parsed.data.positions, layout: parsed.data.layout ?? {} };
}

/** Stable key order and 0.1 unit precision: the file diffs cleanly. */
function canonical(p: Positions): Positions {
  return Object.fromEntries(Object.entries(p).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, q]) => [k, { x: Math.round(q.x * 10) / 10, y: Math.round(q.y * 10) / 10 }]));
}

export async function writeCanvas(vaultDir: string, file: CanvasFile): Promise<void> {
  const layout = Object.keys(file.layout).length ? { layout: canonical(file.layout) } : {};
  await atomicWrite(vaultDir, CANVAS_FILE, `${JSON.stringify({ version: 1, positions: canonical(file.positions), ...layout }, null, 1)}\n`);
}

function merge(base: Positions, changes: CanvasChange['positions'], replace: boolean | undefined): Positions {
  const next: Positions = replace ? {} : { ...base };
  for (const [id, p] of Object.entries(changes ?? {})) {
    if (p) next[id] = p; else delete next[id];
  }
  return next;
}

const queues = new Map<string, Promise<unknown>>();

/** Apply a change (serialised per vault); returns how many pins and layout positions are saved. */
export function changeCanvas(vaultDir: string, change: CanvasChange): Promise<{ count: number; laidOut: number }> {
  const fn = async () => {
    const cur = await readCanvas(vaultDir);
    const next = {
      positions: merge(cur.positions, change.positions, change.replace),
      layout: merge(cur.layout, change.layout, change.replaceLayout),
    };
    await writeCanvas(vaultDir, next);
    return { count: Object.keys(next.positions).length, laidOut: Object.keys(next.layout).length };
  };
  const run = (queues.get(vaultDir) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  queues.set(vaultDir, tail);
  void tail.then(() => { if (queues.get(vaultDir) === tail) queues.delete(vaultDir); });
  return run;
}
