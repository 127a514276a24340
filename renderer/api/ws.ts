/**
 * ClientTransport over the web shell's WebSocket. Calls sent before the socket
 * opens are queued; when it closes, pending calls fail with `disconnected` and
 * the connection state is reported (the status bar shows it).
 */
import type { ClientTransport, Reply, WsServerMessage } from '../../shared/rpc-client.js';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export function wsTransport(url: string, onState: (s: ConnectionState) => void): ClientTransport {
  let nextId = 1;
  const pending = new Map<number, (r: Reply) => void>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  let queue: string[] = [];
  const ws = new WebSocket(url);
  onState('connecting');

  ws.addEventListener('open', () => {
    onState('open');
    for (const m of queue) ws.send(m);
    queue = [];
  });
  ws.addEventListener('close', () => {
    onState('closed');
    for (const done of pending.values()) done({ ok: false, error: { code: 'disconnected', message: 'the connection to Lorecraft closed' } });
    pending.clear();
  });
  ws.addEventListener('message', (ev) => {
    const msg = JSON.parse(String(ev.data)) as WsServerMessage;
    if (msg.kind === 'reply') {
      pending.get(msg.id)?.(msg.reply);
      pending.delete(msg.id);
    } else {
      for (const fn of listeners.get(msg.event) ?? []) fn(msg.payload);
    }
  });

  return {
    invoke(channel, payload) {
      const id = nextId++;
      const text = JSON.stringify({ id, channel, payload });
      return new Promise<Reply>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED || ws.readyState === WebSocket.CLOSING) {
          return resolve({ ok: false, error: { code: 'disconnected', message: 'the connection to Lorecraft is closed' } });
        }
        pending.set(id, resolve);
        if (ws.readyState === WebSocket.OPEN) ws.send(text); else queue.push(text);
      });
    },
    subscribe(event, fn) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(fn);
      return () => void set.delete(fn);
    },
  };
}
