/**
 * ClientTransport over the web shell's WebSocket. Calls sent before the socket
 * opens are queued; when it closes, pending calls fail with `disconnected` and
 * the connection state is reported (the status bar shows it).
 *
 * The socket may have been opened before the bundle loaded (public/early.js,
 * `window.__lorecraftEarly`): then it is adopted with the messages it has
 * received so far, and each of the early calls answers the app's first call of
 * the same channel and payload instead of a second round trip.
 */
import type { ClientTransport, Reply, WsServerMessage } from '../../shared/rpc.js';

export type ConnectionState = 'connecting' | 'open' | 'closed';

/** What public/early.js leaves behind: its socket, the messages kept, the calls it sent (payload as JSON text). */
export interface EarlySocket {
  ws: WebSocket;
  messages: unknown[];
  calls: Array<{ id: number; channel: string; payload: string }>;
  /** set here once the kept messages are taken: every later message goes to it */
  deliver: ((data: unknown) => void) | null;
  /** set here when the socket was taken before it opened: the early script then sends nothing */
  adopted: boolean;
}

declare global {
  interface Window { __lorecraftEarly?: EarlySocket }
}

/** The early socket, taken once (null when there is none, or it has closed: the transport opens its own). */
function takeEarly(): EarlySocket | null {
  if (typeof window === 'undefined') return null;
  const early = window.__lorecraftEarly ?? null;
  delete window.__lorecraftEarly;
  if (!early || early.ws.readyState === WebSocket.CLOSED || early.ws.readyState === WebSocket.CLOSING) return null;
  return early;
}

export function wsTransport(url: string, onState: (s: ConnectionState) => void, early: EarlySocket | null = takeEarly()): ClientTransport {
  let nextId = 1;
  const pending = new Map<number, (r: Reply) => void>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  let queue: string[] = [];
  const ws = early?.ws ?? new WebSocket(url);
  onState(ws.readyState === WebSocket.OPEN ? 'open' : 'connecting');
  /** the early calls' answers by `channel payload`, each for the first app call that matches */
  const answered = new Map<string, Promise<Reply>>();

  const receive = (data: unknown) => {
    const msg = JSON.parse(String(data)) as WsServerMessage;
    if (msg.kind === 'reply') {
      pending.get(msg.id)?.(msg.reply);
      pending.delete(msg.id);
    } else {
      for (const fn of listeners.get(msg.event) ?? []) fn(msg.payload);
    }
  };

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
  if (!early) ws.addEventListener('message', (ev) => receive(ev.data));
  else {
    early.adopted = true;
    // the early calls (sent once the socket opened, none if it has not yet): their answers wait here
    for (const c of early.calls) {
      answered.set(`${c.channel} ${c.payload}`, new Promise<Reply>((resolve) => pending.set(c.id, resolve)));
      nextId = Math.max(nextId, c.id + 1);
    }
    // what arrived before the bundle, in order, once the app's modules have run (its event listeners are then
    // subscribed); anything arriving until then joins the same list, so the order is kept
    setTimeout(() => {
      const kept = early.messages;
      early.messages = [];
      early.deliver = receive;
      for (const d of kept) receive(d);
    }, 0);
  }

  return {
    invoke(channel, payload) {
      const key = `${channel} ${JSON.stringify(payload)}`;
      const ready = answered.get(key);
      if (ready) { answered.delete(key); return ready; }
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
