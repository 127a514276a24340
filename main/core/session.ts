/**
 * CoreSession: the one open vault behind a shell (web or Electron). Opens the
 * core, forwards its changes as push events, switches vaults (closing the old
 * core first: one process per Kùzu database), and closes cleanly.
 * Opens and closes are serialised, so two quick `vault-open`s never overlap.
 *
 * The real opener is interactive: `vault-opened` is pushed once the model holds
 * the vault (list, name search and the entity panel answer from it) while the
 * graph loads and search indexes in the background. Meanwhile `sync-status`
 * carries the progress (files read / total, 'loading', 'indexing') for the
 * status bar, and once more without it when search is ready.
 */
import type { CoreHost } from './core.js';
import type { OpenCoreOptions } from './index.js';
import { CoreError } from '../domain/errors.js';
import { TaskQueue } from '../domain/queue.js';
import type { VaultInfo } from '../../shared/contract.js';
import type { SyncProgress, SyncStatus } from '../../shared/types.js';
import { listVaultFiles } from '../config/excludes.js';
import type { Emit } from '../../shared/rpc.js';
import { GC_QUIET_MS, gcAfterOpenEnabled, releaseAfterOpen } from './memory.js';

/** What the session asks of an opener: report the open's progress (OpenCoreOptions.onProgress). */
export interface OpenHooks { onProgress?: (p: SyncProgress | null) => void }

export type CoreOpener = (vaultDir: string, hooks?: OpenHooks) => Promise<CoreHost>;

/**
 * An opener of watched cores (the UI must follow the files) that open interactively (they answer from the model
 * while the graph loads), with these further options (tests: dbDir, store).
 */
export function watchedOpener(extra: Omit<OpenCoreOptions, 'vaultDir' | 'watch' | 'interactive' | 'onProgress'> = {}): CoreOpener {
  return async (vaultDir, hooks = {}) => {
    const { openCore } = await import('./index.js');
    return openCore({ ...extra, vaultDir, watch: true, interactive: true, ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}) });
  };
}

/** The real opener. */
export const openWatchedCore: CoreOpener = watchedOpener();

/** the status bar's counts: in the players' view, those of what the players see */
function statusOf(core: CoreHost): SyncStatus {
  return core.audience === 'players' ? core.view({ audience: 'players' }).status() : core.status();
}

/** A core's status, or the opening status while its model's edge maps are still being built (model.edgesPending). */
function openedStatus(core: CoreHost): SyncStatus {
  return core.engine.model.edgesPending() ? openingStatus({ phase: 'loading' }) : statusOf(core);
}

/** The status pushed while a vault opens and no core exists yet. */
function openingStatus(progress: SyncProgress | null): SyncStatus {
  return { state: 'syncing', entities: 0, relationships: 0, placeholders: 0, problems: 0, lastSync: null, ...(progress ? { progress } : {}) };
}

/** The session's error when a command comes with no vault open. */
export class NoVaultError extends CoreError {
  constructor() { super('no-vault', 'no vault is open'); }
}

export class CoreSession {
  private core: CoreHost | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly queue = new TaskQueue();

  /**
   * release: called once an opened core has finished its open's background work (search index, caches saved),
   * and its players' view's preparation has ended, if that core is still the session's: by default two full
   * GCs a second apart (memory.ts releaseAfterOpen), so that what the open allocated and dropped is not kept
   * resident by an idle process. `still()`: is that core still the session's? `busyFor()`: ms until the session
   * has been asked nothing for GC_QUIET_MS (0: quiet), so that the collections wait while the app is in use.
   */
  constructor(
    private readonly emit: Emit,
    private readonly opener: CoreOpener = openWatchedCore,
    private readonly release: ((still: () => boolean, busyFor: () => number) => void) | null = gcAfterOpenEnabled()
      ? (still, busyFor) => { releaseAfterOpen(still, undefined, undefined, undefined, undefined, busyFor); } : null,
  ) {}

  /** when a command last asked for the core (performance.now()) */
  private lastAsked = -Infinity;
  /** ms until nothing has been asked of the session for GC_QUIET_MS (0: quiet now) */
  private busyFor(): number {
    return Math.max(0, this.lastAsked + GC_QUIET_MS - performance.now());
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run(fn);
  }

  current(): CoreHost {
    if (!this.core) throw new NoVaultError();
    this.lastAsked = performance.now();
    return this.core;
  }

  get isOpen(): boolean { return this.core !== null; }

  info(): VaultInfo {
    const core = this.current();
    const config = core.config();
    return {
      vaultDir: core.vaultDir,
      project: config.project,
      layers: config.layers.map((l) => ({ name: l.name, canonical: l.canonical, depends_on: l.depends_on })),
      status: openedStatus(core),
      hasSchema: core.schema().entity_types.length > 0,
      vaultFiles: listVaultFiles(core.vaultDir, config),
    };
  }

  open(vaultDir: string): Promise<VaultInfo> {
    return this.serial(async () => {
      await this.closeNow();
      let opened: CoreHost | null = null;
      const onProgress = (p: SyncProgress | null): void => {
        if (opened && this.core !== opened) return; // a core closed or replaced since
        this.emit('sync-status', opened ? opened.status() : openingStatus(p));
      };
      const core = await this.opener(vaultDir, { onProgress });
      opened = core;
      this.core = core;
      // the core's own status from now on (progress reported before it existed carried no counts); while a cold
      // open's edge maps are still being built (a slice per turn: the first list, lookups and panels answer
      // meanwhile), the opening status again: its counts would finish them at once. Its counts come with the
      // next status (progress 'indexing', once the graph has loaded)
      this.emit('sync-status', openedStatus(core));
      const off = core.onChange((e) => {
        // in the players' view a push names no path or id (they would name GM-only notes): the renderer refetches
        this.emit('vault-changed', core.audience === 'players' ? { origin: e.origin, paths: [], upserted: [], removed: [] } : e);
        this.emit('sync-status', statusOf(core));
      });
      // the players' view is built in the background, so that switching to it is instant
      const cold = core.warmPlayersView();
      this.unsubscribe = () => { off(); cold(); };
      const info = this.info();
      this.emit('vault-opened', info);
      const release = this.release;
      if (release) {
        // after the players' view's preparation too (it starts once search is ready and reads every note's
        // body: ~20 MB of garbage at 10k that would otherwise stay resident, rss15e)
        void core.engine.backgroundDone().then(() => core.playersIdle()).then(() => {
          // on the next turn: the open's last continuations have let go of what they held
          setImmediate(() => { if (this.core === core) release(() => this.core === core, () => this.busyFor()); });
        });
      }
      return info;
    });
  }

  close(): Promise<void> {
    return this.serial(() => this.closeNow());
  }

  private async closeNow(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    const core = this.core;
    this.core = null;
    if (core) await core.close();
  }
}
