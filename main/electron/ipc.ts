/**
 * The contract over Electron IPC: a ServerTransport on ipcMain.handle, with the
 * caller's frame URL in the CallContext (registerHandlers checks it), and pushes
 * to the window queued until its renderer has called `app-ready` (events sent
 * before it subscribed would be lost).
 */
import { ipcMain, type WebContents } from 'electron';
import type { CallContext, EventName } from '../../shared/contract.js';
import { IPC_EVENT_CHANNEL, type Reply, type ServerTransport } from '../../shared/rpc.js';

export class ElectronTransport implements ServerTransport {
  private target: WebContents | null = null;
  private ready = false;
  private queue: Array<[EventName, unknown]> = [];

  handle(channel: string, fn: (payload: unknown, ctx: CallContext) => Promise<Reply>): void {
    ipcMain.handle(channel, async (e, payload: unknown) => {
      const ctx: CallContext = { transport: 'ipc', senderUrl: e.senderFrame?.url };
      const reply = await fn(payload, ctx);
      if (channel === 'app-ready' && reply.ok && e.sender === this.target) this.flush();
      return reply;
    });
  }

  /** The window whose renderer receives pushes; a reload makes it un-ready until it calls app-ready again. */
  attach(contents: WebContents): void {
    this.target = contents;
    this.ready = false;
    contents.on('did-start-navigation', (_e, _url, _inPlace, isMainFrame) => { if (isMainFrame) this.ready = false; });
    contents.once('destroyed', () => { if (this.target === contents) { this.target = null; this.ready = false; this.queue = []; } });
  }

  push(event: EventName, payload: unknown): void {
    if (!this.target || this.target.isDestroyed()) return;
    if (!this.ready) { this.queue.push([event, payload]); return; }
    this.target.send(IPC_EVENT_CHANNEL, event, payload);
  }

  private flush(): void {
    this.ready = true;
    const queued = this.queue;
    this.queue = [];
    for (const [event, payload] of queued) this.push(event, payload);
  }
}
