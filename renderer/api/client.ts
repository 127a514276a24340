/**
 * The renderer's one API client. In Electron the preload exposes
 * `window.lorecraft` (a LorecraftBridge over IPC); in a browser we talk to the
 * web shell's WebSocket with the token from the page URL. Callers never know which.
 */
import { createClient, type Api, type LorecraftBridge } from '../../shared/rpc-client.js';
import { wsTransport, type ConnectionState } from './ws.js';

declare global {
  interface Window { lorecraft?: LorecraftBridge }
}

const connectionListeners = new Set<(s: ConnectionState) => void>();
let connection: ConnectionState = 'connecting';

export function onConnection(fn: (s: ConnectionState) => void): () => void {
  connectionListeners.add(fn);
  fn(connection);
  return () => void connectionListeners.delete(fn);
}

function setConnection(s: ConnectionState): void {
  connection = s;
  for (const fn of connectionListeners) fn(s);
}

function connect(): Api {
  const bridge = window.lorecraft;
  if (bridge) {
    setConnection('open');
    return createClient({ invoke: (ch, p) => bridge.invoke(ch as never, p), subscribe: (e, fn) => bridge.subscribe(e as never, fn) });
  }
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return createClient(wsTransport(`${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token)}`, setConnection));
}

export const api: Api = connect();
export type { ConnectionState };
