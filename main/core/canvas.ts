/**
 * The `canvas-*` group (shared/contract-canvas.ts): pinned node positions in
 * `<vault>/.lorecraft/canvas.json`. Read-merge-write runs in the core's queue
 * for the file so two quick drags never lose each other's pins; the file is
 * replaced atomically (temp file + rename). An unreadable file is reported
 * (file named) and treated as empty; it is overwritten only by the next pin.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CanvasFileZ, type Positions } from '../../shared/contract-canvas.js';
import { atomicWrite } from '../edit/safe-fs.js';
import type { TaskQueue } from '../domain/queue.js';

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

/** Pin (or, with a null position, unpin) nodes; `replace` drops every other pin. Runs in `queue`. */
export function setPositions(vaultDir: string, queue: TaskQueue, positions: Record<string, { x: number; y: number } | null | undefined>, replace = false): Promise<{ count: number }> {
  return queue.run(async () => {
    const next: Positions = replace ? {} : { ...(await readPositions(vaultDir)).positions };
    for (const [id, p] of Object.entries(positions)) {
      if (p) next[id] = p; else delete next[id];
    }
    await writePositions(vaultDir, next);
    return { count: Object.keys(next).length };
  });
}
