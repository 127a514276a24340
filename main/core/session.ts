/**
 * CoreSession: the one open vault behind a shell (web or Electron). Opens the
 * core, forwards its changes as push events, switches vaults (closing the old
 * core first: one process per Kùzu database), and closes cleanly.
 * Opens and closes are serialised, so two quick `vault-open`s never overlap.
 */
import type { CoreHost } from './core.js';
import { CoreError } from '../domain/errors.js';
import { TaskQueue } from '../domain/queue.js';
import type { VaultInfo } from '../../shared/contract.js';
import { listVaultFiles } from '../config/excludes.js';
import type { Emit } from '../../shared/rpc.js';

export type CoreOpener = (vaultDir: string) => Promise<CoreHost>;

/** The real opener: the core with its watcher on (the UI must follow the files). */
export const openWatchedCore: CoreOpener = async (vaultDir) => {
  const { openCore } = await import('./index.js');
  return openCore({ vaultDir, watch: true });
};

/** The session's error when a command comes with no vault open. */
export class NoVaultError extends CoreError {
  constructor() { super('no-vault', 'no vault is open'); }
}

export class CoreSession {
  private core: CoreHost | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly queue = new TaskQueue();

  constructor(private readonly emit: Emit, private readonly opener: CoreOpener = openWatchedCore) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run(fn);
  }

  current(): CoreHost {
    if (!this.core) throw new NoVaultError();
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
      status: core.status(),
      hasSchema: core.schema().entity_types.length > 0,
      vaultFiles: listVaultFiles(core.vaultDir, config),
    };
  }

  open(vaultDir: string): Promise<VaultInfo> {
    return this.serial(async () => {
      await this.closeNow();
      const core = await this.opener(vaultDir);
      this.core = core;
      this.unsubscribe = core.onChange((e) => {
        // in the players' view a push names no path or id (they would name GM-only notes): the renderer refetches
        this.emit('vault-changed', core.audience === 'players' ? { origin: e.origin, paths: [], upserted: [], removed: [] } : e);
        this.emit('sync-status', core.status());
      });
      const info = this.info();
      this.emit('vault-opened', info);
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
