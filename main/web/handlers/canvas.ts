/**
 * The `canvas-*` group (shared/contract-canvas.ts): pinned node positions in
 * `<vault>/.lorecraft/canvas.json`. Read-merge-write runs in one queue per
 * session so two quick drags never lose each other's pins; the file is
 * replaced atomically (temp file + rename). An unreadable file is reported
 * (file named) and treated as empty; it is overwritten only by the next pin.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CanvasFileZ, type Positions, type canvasHandlers } from '../../../shared/contract-canvas.js';
import { atomicWrite } from '../../edit/safe-fs.js';
import type { CoreSession } from '../session.js';
import type { Group } from './vault.js';

export const CANVAS_FILE = '.lorecraft/canvas.json';

/** Read the pins of a vault: `problem` names the file and what is wrong with it. */
export async function readPositions(vaultDir: string): Promise<{ positions: Positions; problem?: string }> {
  let text: string;
  try {
    text = await readFile(join(vaultDir, CANVAS_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { positions: {} };
    return { positions: {}, problem: `${CANVAS_FILE}: ${(e as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { positions: {}, problem: `${CANVAS_FILE}: not JSON (${(e as Error).message}); pins ignored` };
  }
  const parsed = CanvasFileZ.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    return { positions: {}, problem: `${CANVAS_FILE}: field '${i.path.join('.') || '(root)'}': ${i.message}; pins ignored` };
  }
  return { positions: parsed.data.positions };
}

export async function writePositions(vaultDir: string, positions: Positions): Promise<void> {
  // stable key order: the file diffs cleanly
  const sorted = Object.fromEntries(Object.entries(positions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, p]) => [k, { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 }]));
  await atomicWrite(vaultDir, CANVAS_FILE, `${JSON.stringify({ version: 1, positions: sorted }, null, 1)}\n`);
}

/** One write queue per session (however many handler tables are built over it). */
const queues = new WeakMap<CoreSession, Promise<unknown>>();

export function canvasGroup(session: CoreSession): Group<typeof canvasHandlers> {
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = (queues.get(session) ?? Promise.resolve()).then(fn, fn);
    queues.set(session, run.catch(() => undefined));
    return run;
  };
  return {
    'canvas-positions-get': async () => readPositions(session.current().vaultDir),
    'canvas-positions-set': async ({ positions, replace }) => serial(async () => {
      const dir = session.current().vaultDir;
      const next: Positions = replace ? {} : { ...(await readPositions(dir)).positions };
      for (const [id, p] of Object.entries(positions)) {
        if (p) next[id] = p; else delete next[id];
      }
      await writePositions(dir, next);
      return { count: Object.keys(next).length };
    }),
  };
}
