/**
 * warmPlayersView after an interactive open (the app's): the players' view's preparation waits for the open's
 * background load (the store, the search index) instead of starting 0.3 s after the model is ready, when the
 * app's page, bundle and first calls are being served by the same process (issue 19 point 2). The store is the
 * real Kùzu store, its search index held back until the test lets it go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openCore, type CoreHost } from './index.js';
import type { PlayersLenses } from './audience.js';
import { heldSearchIndexStore } from '../store/test-helpers.js';

const VAULT = resolve(import.meta.dirname, '../../e2e/vaults/player-secrets');
let dir = '';
let core: CoreHost | null = null;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-players-after-open-'));
  await cp(VAULT, join(dir, 'vault'), { recursive: true });
});
afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

/** until a run of the preparation is over (its steps run one per macrotask) */
const settled = async () => { for (let i = 0; i < 50; i++) await sleep(5); };

describe('warmPlayersView after an interactive open', () => {
  it('prepares nothing until the open\'s store load and search index are done, then prepares', async () => {
    const { store, release, indexed } = heldSearchIndexStore();
    core = await openCore({ vaultDir: join(dir, 'vault'), dbDir: join(dir, 'db'), interactive: true, store });
    const lenses = (core as unknown as { players: PlayersLenses }).players;
    const off = core.warmPlayersView();
    try {
      // the preparation's own delay is 300 ms: well past it, the open's load is still held
      await sleep(900); await settled();
      expect(indexed()).toBe(false);
      expect(lenses.prepared()).toBe(false);
      release();
      for (let i = 0; i < 600 && !indexed(); i++) await sleep(50);
      expect(indexed()).toBe(true);
      await sleep(700); await settled();
      expect(lenses.prepared()).toBe(true);
    } finally {
      off();
      release();
    }
  }, 60_000);
});
