/**
 * Timeline axis and memory (pure, tested).
 * - labelStride: show every k-th tick label so that no two shown labels
 *   overlap (the others show on hover, in the tick's title). The first and the
 *   last stops always keep theirs; a label too close to the last one is hidden.
 * - remembered layer/session per vault (localStorage key per vault folder).
 */
export function labelStride(count: number, widthPx: number, labelPx: number, gapPx = 6): number {
  if (count <= 1 || widthPx <= 0) return 1;
  const spacing = widthPx / (count - 1);
  return Math.max(1, Math.ceil((labelPx + gapPx) / spacing));
}

/** Indices whose label is shown, for `stride`: 0, k, 2k, … and the last; one too near the last gives way. */
export function shownLabels(count: number, stride: number): Set<number> {
  const out = new Set<number>();
  if (count === 0) return out;
  for (let i = 0; i < count; i += stride) out.add(i);
  const last = count - 1;
  for (const i of out) if (i !== last && last - i < stride && i !== 0) out.delete(i);
  if (!(count > 1 && stride >= count - 1 && out.has(0) && last - 0 < stride)) out.add(last);
  return out;
}

/** A label's width estimate in px at the axis' 9px font (average glyph ~5.4px). */
export function labelWidth(text: string): number {
  return Math.ceil(text.length * 5.4) + 4;
}

export interface Remembered { layer: string; session: number | null }

const key = (vaultDir: string) => `lorecraft.timeline:${vaultDir}`;

export function remember(store: Pick<Storage, 'setItem'>, vaultDir: string, r: Remembered): void {
  try { store.setItem(key(vaultDir), JSON.stringify(r)); } catch { /* storage full or disabled: nothing to keep */ }
}

export function recall(store: Pick<Storage, 'getItem'>, vaultDir: string): Remembered | null {
  try {
    const v = JSON.parse(store.getItem(key(vaultDir)) ?? 'null') as unknown;
    if (!v || typeof v !== 'object') return null;
    const { layer, session } = v as Record<string, unknown>;
    if (typeof layer !== 'string' || !(session === null || Number.isInteger(session))) return null;
    return { layer, session: session as number | null };
  } catch {
    return null;
  }
}

/**
 * remember() kept off a scrub's steps: the latest layer/session of a vault is written `ms` after the last call
 * (one `setItem` when the steps pause instead of one per step), or at once by flush(): before it is read back,
 * when the page is hidden or unloaded, or when another vault's is noted.
 */
export function laterRemember(store: () => Pick<Storage, 'setItem'>, ms: number,
  timers: { set(fn: () => void, ms: number): unknown; clear(id: unknown): void } = {
    set: (fn, t) => setTimeout(fn, t), clear: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  }): { note(vaultDir: string, r: Remembered): void; flush(): void } {
  let pending: { dir: string; r: Remembered } | null = null;
  let timer: unknown = null;
  const flush = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
    const p = pending;
    pending = null;
    if (p) remember(store(), p.dir, p.r);
  };
  return {
    note(dir, r) {
      if (pending && pending.dir !== dir) flush();
      pending = { dir, r };
      if (timer !== null) timers.clear(timer);
      timer = timers.set(flush, ms);
    },
    flush,
  };
}
