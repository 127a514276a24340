/**
 * The one task queue of main/ (the sync engine, the editor, the vault session, the canvas file, the
 * Kùzu connection): a promise chain where tasks run one at a time, in order, and a failure does not
 * block the next task.
 */
export class TaskQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  run<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++;
    const p = this.tail.then(fn, fn).finally(() => { this.pending--; });
    this.tail = p.catch(() => undefined);
    return p;
  }

  get busy(): boolean { return this.pending > 0; }

  /** Resolves when everything queued so far has run. */
  idle(): Promise<void> { return this.tail.then(() => undefined); }
}
