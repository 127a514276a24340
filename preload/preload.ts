/**
 * The preload: exposes the contract to the renderer as `window.lorecraft`,
 * named functions only (never ipcRenderer, never the IPC event object). Only
 * channels and events of the contract pass; subscriptions return an unsubscribe.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNELS, EVENT_NAMES, type Channel, type EventName } from '../shared/contract.js';
import { IPC_EVENT_CHANNEL, type LorecraftBridge, type Reply } from '../shared/rpc.js';

const channels = new Set<string>(CHANNELS);
const eventNames = new Set<string>(EVENT_NAMES);

const bridge = {
  invoke(channel: Channel, payload: unknown): Promise<Reply> {
    if (!channels.has(channel)) return Promise.resolve({ ok: false, error: { code: 'unknown-channel', message: `unknown channel '${String(channel)}'` } });
    return ipcRenderer.invoke(channel, payload) as Promise<Reply>;
  },
  subscribe(event: EventName, fn: (payload: unknown) => void): () => void {
    if (!eventNames.has(event)) throw new Error(`unknown event '${String(event)}'`);
    const listener = (_e: IpcRendererEvent, name: string, payload: unknown) => { if (name === event) fn(payload); };
    ipcRenderer.on(IPC_EVENT_CHANNEL, listener);
    return () => { ipcRenderer.removeListener(IPC_EVENT_CHANNEL, listener); };
  },
} satisfies LorecraftBridge;

contextBridge.exposeInMainWorld('lorecraft', bridge);
