/**
 * PlayersLenses.warm (main/core/audience.ts): the players' lens where the app's view is, built off the
 * interactive path a moment after it is asked for, and the one a switch then uses (same object); stop()
 * cancels; after a change the lens is rebuilt for the new version. (That a change during a run ends the
 * run is not tested: the run's steps and a sync cannot be interleaved deterministically here.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openCore, type CoreHost } from './index.js';
import { PlayersLenses } from './audience.js';

const VAULT = resolve(import.meta.dirname, '../../e2e/vaults/player-secrets');
let dir = '';
let core: CoreHost;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-players-lenses-'));
  await cp(VAULT, join(dir, 'vault'), { recursive: true });
  core = await openCore({ vaultDir: join(dir, 'vault'), dbDir: join(dir, 'db') });
}, 180_000);
afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

/** until the warm run is over (its steps run one per macrotask) */
const settled = async () => { for (let i = 0; i < 50; i++) await sleep(5); };

describe('PlayersLenses.warm', () => {
  it('builds the lens at the view a moment later, not at once', async () => {
    const p = new PlayersLenses(core);
    p.warm(() => ({ layer: 'campaign', session: 2 }), 20);
    expect(p.has('campaign', 2)).toBe(false); // nothing on the caller's path
    await settled();
    expect(p.has('campaign', 2)).toBe(true);
    const built = p.lens('campaign', 2);
    expect(p.lens('campaign', 2)).toBe(built);
    expect(built.visible.size).toBeGreaterThan(0);
    p.stop();
  });

  it('stop() cancels a run not started yet; after a change a run builds the new version\'s lens', async () => {
    const q = new PlayersLenses(core);
    q.warm(() => ({ layer: 'campaign', session: 3 }), 10);
    q.stop();
    await settled();
    expect(q.has('campaign', 3)).toBe(false);

    const p = new PlayersLenses(core);
    const old = p.lens('campaign', 1);
    const file = join(core.vaultDir, 'setting/npcs/Mira Vell.md');
    const before = await readFile(file, 'utf8');
    try {
      await writeFile(file, before.replace('alive', 'wounded'));
      await core.sync();
      expect(p.has('campaign', 1)).toBe(false); // the old version's lens is not served
      p.warm(() => ({ layer: 'campaign', session: 1 }), 0);
      await settled();
      expect(p.has('campaign', 1)).toBe(true);
      expect(p.lens('campaign', 1)).not.toBe(old);
    } finally {
      p.stop();
      await writeFile(file, before);
      await core.sync();
    }
  });
});

describe('PlayersLenses.idle', () => {
  it('resolves at once with nothing scheduled, else once the run has ended or stop() ended it', async () => {
    const p = new PlayersLenses(core);
    let idle = false;
    await p.idle().then(() => { idle = true; });
    expect(idle).toBe(true);

    p.prepare(() => 'campaign', 20);
    idle = false;
    const done = p.idle().then(() => { idle = true; });
    await sleep(5);
    expect(idle).toBe(false); // scheduled, not run yet
    await done;
    expect(p.prepared()).toBe(true); // resolved by the run's end, not before

    const q = new PlayersLenses(core);
    q.prepare(() => 'campaign', 10_000);
    let stopped = false;
    const ended = q.idle().then(() => { stopped = true; });
    await sleep(5);
    expect(stopped).toBe(false);
    q.stop();
    await ended;
    expect(q.prepared()).toBe(false);
    p.stop();
  });
});

describe('warmPlayersView', () => {
  it('builds no lens ahead until the players\' view has been shown in the session, then keeps it built where the GM rests', async () => {
    const lenses = (core as unknown as { players: PlayersLenses }).players;
    const off = core.warmPlayersView();
    try {
      core.setAudience('gm', { layer: 'campaign', session: 2 });
      await sleep(700); await settled();
      expect(lenses.has('campaign', 2)).toBe(false); // never shown: no lens built (they hold the memory)
      expect(lenses.prepared()).toBe(true); // only what every lens of the version shares
      core.setAudience('players', { layer: 'campaign', session: 1 });
      core.setAudience('gm', { layer: 'campaign', session: 2 });
      await sleep(700); await settled();
      expect(lenses.has('campaign', 2)).toBe(true);
    } finally {
      off();
      core.setAudience('gm');
    }
  });
});
