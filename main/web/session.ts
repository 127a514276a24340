/**
 * CoreSession: the one open vault behind a shell (web or Electron). Opens the
 * core, forwards its changes as push events, switches vaults (closing the old
 * core first: one process per Kùzu database), and closes cleanly.
 * Opens and closes are serialised, so two quick `vault-open`s never overlap.
 */
import type { CoreHost } from '../core/index.js';
import { editorFor, type Editor } from '../edit/commands.js';
import { createTimeline, type TimelineService } from '../timeline/index.js';
import type { VaultInfo } from '../../shared/contract.js';
import { listVaultFiles } from '../config/excludes.js';
import type { Emit } from '../../shared/rpc.js';

export type CoreOpener = (vaultDir: string) => Promise<CoreHost>;

/** The real opener: the core with its watcher on (the UI must follow the files). */
export const openWatchedCore: CoreOpener = async (vaultDir) => {
  const { openCore } = await import('../core/index.js');
  return openCore({ vaultDir, watch: true });
};

export class NoVaultError extends Error {
  readonly code = 'no-vault';
  constructor() { super('no vault is open'); }
}

export class CoreSession {
  private core: CoreHost | null = null;
  /** the write-back editor of the open core, created on first use (undo history lives here) */
  private editorOf: { core: CoreHost; editor: Editor } | null = null;
  /** the timeline engine of the open core, created on first use (its index is rebuilt lazily after changes) */
  private timelineOf: { core: CoreHost; timeline: TimelineService } | null = null;
  private unsubscribe: (() => void) | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly emit: Emit, private readonly opener: CoreOpener = openWatchedCore) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  current(): CoreHost {
    if (!this.core) throw new NoVaultError();
    return this.core;
  }

  /** The one Editor of the open core (lazily created; disposed when the core closes). */
  editor(): Editor {
    const core = this.current();
    if (this.editorOf?.core !== core) this.editorOf = { core, editor: editorFor(core) };
    return this.editorOf.editor;
  }

  /** The one TimelineService of the open core (lazily created; closed with the core). */
  timeline(): TimelineService {
    const core = this.current();
    if (this.timelineOf?.core !== core) {
      this.timelineOf?.timeline.close();
      this.timelineOf = { core, timeline: createTimeline(core) };
    }
    return this.timelineOf.timeline;
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
        this.emit('vault-changed', e);
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
    this.editorOf?.editor.dispose();
    this.editorOf = null;
    this.timelineOf?.timeline.close();
    this.timelineOf = null;
    const core = this.core;
    this.core = null;
    if (core) await core.close();
  }
}
