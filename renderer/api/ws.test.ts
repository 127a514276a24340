// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Reply } from '../../shared/rpc.js';
import { wsTransport, type EarlySocket } from './ws.js';

/** A WebSocket stand-in: what was sent, and a way to open, answer and close it. */
class FakeSocket {
  static CONNECTING = 0; static OPEN = 1; static CLOSING = 2; static CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: Array<{ id: number; channel: string; payload: unknown }> = [];
  private fns = new Map<string, Array<(ev: { data?: unknown }) => void>>();
  constructor(public url: string) { FakeSocket.made.push(this); }
  addEventListener(type: string, fn: (ev: { data?: unknown }) => void) { this.fns.set(type, [...this.fns.get(type) ?? [], fn]); }
  send(text: string) { this.sent.push(JSON.parse(text)); }
  fire(type: string, data?: unknown) { for (const fn of this.fns.get(type) ?? []) fn({ data }); }
  open() { this.readyState = 1; this.fire('open'); }
  reply(id: number, value: unknown) { this.fire('message', JSON.stringify({ kind: 'reply', id, reply: { ok: true, value } })); }
  event(event: string, payload: unknown) { this.fire('message', JSON.stringify({ kind: 'event', event, payload })); }
  close() { this.readyState = 3; this.fire('close'); }
}

/** public/early.js run as the page runs it, with this stand-in socket; what it leaves on window */
function runEarly(): { early: EarlySocket & { ws: FakeSocket } } {
  const src = readFileSync(fileURLToPath(new URL('../public/early.js', import.meta.url)), 'utf8');
  const window: Record<string, unknown> = {};
  runInNewContext(src, { window, location: { protocol: 'http:', host: '127.0.0.1:9', search: '?token=t%20k' }, WebSocket: FakeSocket, URLSearchParams });
  return { early: window.__lorecraftEarly as EarlySocket & { ws: FakeSocket } };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the web shell transport with the socket opened before the bundle (public/early.js)', () => {
  beforeEach(() => { FakeSocket.made = []; vi.stubGlobal('WebSocket', FakeSocket); });
  afterEach(() => { vi.unstubAllGlobals(); });

  it('early.js opens the socket with the token and sends the first calls, as the app makes them, once open', () => {
    const { early } = runEarly();
    expect(early.ws.url).toBe('ws://127.0.0.1:9/ws?token=t%20k');
    expect(early.ws.sent).toEqual([]);
    early.ws.open();
    expect(early.ws.sent.map((m) => [m.id, m.channel, m.payload])).toEqual([
      [1, 'canvas-positions-get', { audience: 'gm' }], [2, 'graph-compact', { audience: 'gm' }], [3, 'vault-status', {}], [4, 'schema-get', {}]]);
  });

  it('adopts the socket: an early answer serves the first matching call, once; other calls go out with new ids; kept messages in order', async () => {
    const { early } = runEarly();
    early.ws.open();
    early.ws.reply(2, { graph: 'compact' });
    early.ws.event('sync-status', { n: 1 });
    const states: string[] = [];
    const t = wsTransport('ws://unused', (s) => states.push(s), early);
    expect(FakeSocket.made).toHaveLength(1);
    expect(states).toEqual(['open']);
    const seen: unknown[] = [];
    t.subscribe('sync-status', (p) => seen.push(p));
    // arrives after adoption but before the kept messages are handed over: stays behind them
    early.ws.event('sync-status', { n: 2 });
    const graph = t.invoke('graph-compact', { audience: 'gm' });
    const other = t.invoke('graph-compact', { audience: 'players' });
    const status = t.invoke('vault-status', {});
    const again = t.invoke('vault-status', {});
    // only the calls early.js did not make (or made already) are sent
    expect(early.ws.sent.slice(4).map((m) => [m.id, m.channel, m.payload])).toEqual([[5, 'graph-compact', { audience: 'players' }], [6, 'vault-status', {}]]);
    await tick();
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await graph).toEqual({ ok: true, value: { graph: 'compact' } });
    early.ws.reply(3, { v: 'early' });
    early.ws.reply(6, { v: 'second' });
    early.ws.reply(5, { graph: 'players' });
    expect(await status).toEqual({ ok: true, value: { v: 'early' } });
    expect(await again).toEqual({ ok: true, value: { v: 'second' } });
    expect(await other).toEqual({ ok: true, value: { graph: 'players' } });
    early.ws.event('sync-status', { n: 3 });
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('taken before it opened, the socket carries the app\'s own calls (early.js sends nothing)', () => {
    const { early } = runEarly();
    const t = wsTransport('ws://unused', () => undefined, early);
    void t.invoke('graph-compact', { audience: 'gm' });
    early.ws.open();
    expect(early.ws.sent.map((m) => [m.id, m.channel])).toEqual([[1, 'graph-compact']]);
  });

  it('an early call still unanswered when the socket closes fails as disconnected', async () => {
    const { early } = runEarly();
    early.ws.open();
    const t = wsTransport('ws://unused', () => undefined, early);
    const pins = t.invoke('canvas-positions-get', { audience: 'gm' });
    early.ws.close();
    expect(((await pins) as Extract<Reply, { ok: false }>).error.code).toBe('disconnected');
  });

  it('without an early socket, opens its own', () => {
    const t = wsTransport('ws://x/ws', () => undefined, null);
    void t.invoke('vault-status', {});
    FakeSocket.made[0]!.open();
    expect(FakeSocket.made[0]!.sent.map((m) => [m.id, m.channel])).toEqual([[1, 'vault-status']]);
  });
});
