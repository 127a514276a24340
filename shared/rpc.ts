/**
 * Transport-agnostic plumbing for the contract (shared/contract.ts).
 *
 * Main side: `registerHandlers(transport, impl, opts)` puts every channel of the
 * contract on a ServerTransport (Electron ipcMain, the WebSocket server, or an
 * in-memory pair in tests). Each call: sender check -> request validated with zod
 * -> impl -> response validated with zod -> Reply envelope. Errors never throw
 * across the wire; they come back as `{ ok: false, error: { code, message } }`.
 * `createEmitter(send)` validates push payloads before they leave main.
 *
 * Renderer side (shared/rpc-client.ts, re-exported here; the renderer imports it
 * from there, without zod): `createClient(transport)` gives `call(channel, req)`
 * (throws ApiError on a failed Reply) and `on(event, fn)` (returns an unsubscribe).
 */
import { z } from 'zod';
import {
  contract, events, type CallContext, type Channel, type EventName, type EventPayload, type Handlers,
} from './contract.js';
import { sameAfterParse } from './zod-same.js';

import type { Reply, WireError } from './rpc-client.js';

export { ApiError, createClient, type Api, type ClientTransport, type LorecraftBridge, type Reply, type WireError, type WsServerMessage } from './rpc-client.js';

/** Main side of a transport: route one channel's calls to fn. */
export interface ServerTransport {
  handle(channel: string, fn: (payload: unknown, ctx: CallContext) => Promise<Reply>): void;
}

export interface RegisterOptions {
  /** refuse calls whose sender is not trusted (Electron: the frame URL must be our renderer) */
  allowSender?: (ctx: CallContext) => boolean;
  /** called with unexpected errors (not CoreError-like ones), for logging */
  onError?: (channel: string, err: unknown) => void;
}

function describe(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join('.') : '(payload)'}: ${i.message}`).join('; ');
}

/** An error with a stable string `code` (CoreError and friends) is reported as such. */
function toWireError(err: unknown): WireError {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    const e = err as { code: string; message?: string; details?: Record<string, unknown> };
    return { code: e.code, message: e.message ?? e.code, ...(e.details ? { details: e.details } : {}) };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/** Validate and dispatch one call; exported for transports that need it directly and for tests. */
export async function dispatch(
  channel: string, payload: unknown, ctx: CallContext, impl: Handlers, opts: RegisterOptions = {},
): Promise<Reply> {
  if (!Object.hasOwn(contract, channel)) return { ok: false, error: { code: 'unknown-channel', message: `unknown channel '${channel}'` } };
  const ch = channel as Channel;
  if (opts.allowSender && !opts.allowSender(ctx)) {
    return { ok: false, error: { code: 'forbidden-sender', message: `sender ${ctx.senderUrl ?? '(unknown)'} may not call ${ch}` } };
  }
  const def = contract[ch];
  const req = def.req.safeParse(payload ?? {});
  if (!req.success) return { ok: false, error: { code: 'bad-request', message: `${ch}: ${describe(req.error)}` } };
  let value: unknown;
  try {
    const fn = impl[ch] as (r: unknown, c: CallContext) => Promise<unknown>;
    value = await fn(req.data, ctx);
  } catch (err) {
    const wire = toWireError(err);
    if (wire.code === 'internal') opts.onError?.(ch, err);
    return { ok: false, error: wire };
  }
  // the answer as it is when zod would give it back unchanged (no copy of every object of a big answer), else
  // zod's parse: it strips what the contract does not declare, or refuses the answer (shared/zod-same.ts)
  if (sameAfterParse(def.res, value)) return { ok: true, value };
  const res = def.res.safeParse(value);
  if (!res.success) {
    opts.onError?.(ch, res.error);
    return { ok: false, error: { code: 'bad-response', message: `${ch} returned an invalid response: ${describe(res.error)}` } };
  }
  return { ok: true, value: res.data };
}

/** Register every channel of the contract on the transport. */
export function registerHandlers(transport: ServerTransport, impl: Handlers, opts: RegisterOptions = {}): void {
  for (const channel of Object.keys(contract)) {
    transport.handle(channel, (payload, ctx) => dispatch(channel, payload, ctx, impl, opts));
  }
}

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** A typed, validating push: an invalid payload is a bug in main and throws there, never reaching a renderer. */
export function createEmitter(send: (event: EventName, payload: unknown) => void): Emit {
  return (event, payload) => {
    const parsed = events[event].safeParse(payload);
    if (!parsed.success) throw new Error(`event ${event}: invalid payload: ${describe(parsed.error)}`);
    send(event, parsed.data);
  };
}

/** Message shapes on the WebSocket (JSON), client to server (server to client: rpc-client.ts WsServerMessage). */
export const WsClientMessageZ = z.object({ id: z.number().int(), channel: z.string(), payload: z.unknown() });

/** Electron IPC: main -> renderer pushes travel on this one channel as (event name, payload). */
export const IPC_EVENT_CHANNEL = 'lorecraft:event';
