/**
 * The real Thellade fixture (read only: nothing is written) through its own
 * project files (examples/thellade/lorecraft.yaml + schema.yaml): session notes
 * (#SessionNote: sessionnumber, in_game_start, present) are timeline entries of
 * their campaign group's layer, in session order, without any consequences.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timelineInputFromModel } from './service.js';
import { buildTimelineIndex, type TimelineIndex } from './timeline-index.js';
import { loadVaultModel } from '../sync/load-model.js';

const THELLADE = join(import.meta.dirname, '../../examples/thellade/vault');
const EX = (f: string) => fileURLToPath(new URL(`../../examples/thellade/${f}`, import.meta.url));
let ix: TimelineIndex;

beforeAll(async () => {
  const v = await loadVaultModel(THELLADE, { configPath: EX('lorecraft.yaml'), schemaPath: EX('schema.yaml') });
  ix = buildTimelineIndex(timelineInputFromModel(v.model, v.vaultDir));
});

describe('Thellade session notes on the timeline', () => {
  it('lists each group\'s sessions in order', () => {
    for (const layer of ['group-1', 'group-2', 'group-3', 'group-4', 'group-6']) {
      const events = ix.timeline(layer);
      expect(events.length, layer).toBeGreaterThan(0);
      const sessions = events.map((e) => e.session);
      expect(sessions.every((s) => s !== null), layer).toBe(true);
      expect(sessions, layer).toEqual([...sessions].sort((a, b) => a! - b!));
    }
    expect(ix.timeline('group-3').map((e) => [e.session, e.name.trim()])).toEqual([
      [8, 'Campaign 3 - Session 08 - Bonds Forged in Silence'],
      [9, 'When Memory Burns'],
      [10, "Glyphs, Chains, and Shadows"],
    ]);
  });
  it('reads participants from present, location and the in-game date label', () => {
    const s9 = ix.timeline('group-3').find((e) => e.session === 9)!;
    expect(s9.participants.map((p) => p.name)).toEqual(['Tian Ling', 'Kothar', 'Ephi', 'Hans Dane', 'Karnak', 'Batrok']);
    expect(s9.participants.every((p) => p.id !== null)).toBe(true);
    expect(s9.location?.name).toBe('Ashgate Market');
    expect(s9.date).toEqual({ raw: '04 Dawnmarch 212PR 09:23', label: '04 Dawnmarch 212PR 09:23' });
    expect(s9.consequences).toEqual([]);
    expect(ix.sessions('group-3').find((s) => s.session === 9)!.label).toBe('Session 9 · 04 Dawnmarch 212PR 09:23');
  });
  it('takes a missing session number from the file name, with an info problem', () => {
    const s8 = ix.timeline('group-3').find((e) => e.session === 8)!;
    const p = ix.problems().find((x) => x.file === s8.path)!;
    expect(p).toMatchObject({ severity: 'info', code: 'event-session', field: 'sessionnumber' });
    expect(ix.problems().every((x) => x.severity === 'info')).toBe(true);
  });
  it('a session note of one group is not on another group\'s timeline, and the world has none', () => {
    expect(ix.timeline('world')).toEqual([]);
    const g1 = new Set(ix.timeline('group-1').map((e) => e.id));
    expect(ix.timeline('group-3').some((e) => g1.has(e.id))).toBe(false);
  });
});
