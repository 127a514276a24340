/**
 * The renderer's side of the contract's plumbing (shared/rpc.ts re-exports it): the Reply envelope, the client
 * transport, `createClient` and ApiError. It imports the contract for its types only, so a renderer that loads
 * it evaluates neither zod nor the contract's schemas at start-up (the main side validates; issue 19 point 2).
 */
import type { Channel, EventName, EventPayload, Req, Res } from './contract.js';

export interface WireError { code: string; message: string; details?: Record<string, unknown> }
export type Reply<T = unknown> = { ok: true; value: T } | { ok: false; error: WireError };

/** Renderer side of a transport. */
export interface ClientTransport {
  invoke(channel: string, payload: unknown): Promise<Reply>;
  subscribe(event: string, fn: (payload: unknown) => void): () => void;
}

export class ApiError extends Error {
  constructor(public readonly code: string, message: string, public readonly details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Api {
  call<C extends Channel>(channel: C, req: Req<C>): Promise<Res<C>>;
  on<E extends EventName>(event: E, fn: (payload: EventPayload<E>) => void): () => void;
}

export function createClient(transport: ClientTransport): Api {
  return {
    async call(channel, req) {
      const reply = await transport.invoke(channel, req);
      if (!reply.ok) throw new ApiError(reply.error.code, reply.error.message, reply.error.details);
      return reply.value as never;
    },
    on(event, fn) {
      return transport.subscribe(event, (p) => fn(p as never));
    },
  };
}

/**
 * The object the Electron preload exposes as `window.lorecraft` (named functions
 * only; the preload ends with `satisfies LorecraftBridge`).
 */
export interface LorecraftBridge {
  invoke(channel: Channel, payload: unknown): Promise<Reply>;
  subscribe(event: EventName, fn: (payload: unknown) => void): () => void;
}

/** Message shapes on the WebSocket (JSON), server to client. */
export type WsServerMessage =
  | { kind: 'reply'; id: number; reply: Reply }
  | { kind: 'event'; event: EventName; payload: unknown };
