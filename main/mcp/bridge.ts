/**
 * The MCP bridge. Kùzu allows one process per database, so when the app (or
 * the web shell, or a first `lorecraft mcp`) holds a vault, a later
 * `lorecraft mcp` for the same vault relays its stdio to that process instead
 * of opening the database.
 *
 * Endpoint: a TCP listener on 127.0.0.1 (random port) guarded by a random
 * 32-byte token, advertised in `<vault>/.lorecraft/mcp-endpoint.json` (mode
 * 0600, removed on close). Protocol: the client's first line is
 * `{"token": "...", "mode": "read" | "read-write"}`; the bridge answers
 * `{"ok": true}` (or `{"ok": false, "error": "..."}` and closes); after that
 * the connection carries newline-delimited JSON-RPC exactly like stdio, and
 * each connection gets its own McpServer from the factory.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createMcpServer, type McpServerDeps } from './server.js';
import type { McpMode } from './context.js';
import type { CoreHost } from '../core/index.js';

export const ENDPOINT_FILE = 'mcp-endpoint.json';
const HOST = '127.0.0.1';
const MAX_HANDSHAKE = 1024;

export const EndpointZ = z.object({
  version: z.literal(1),
  host: z.literal(HOST),
  port: z.number().int().min(1).max(65535),
  token: z.string().min(32).max(200),
  pid: z.number().int(),
});
export type Endpoint = z.infer<typeof EndpointZ>;

export const HandshakeZ = z.object({
  token: z.string().max(200), mode: z.enum(['read', 'read-write']),
  /** a players' client (`lorecraft mcp --audience players`): served the players' view, read-only */
  audience: z.enum(['gm', 'players']).optional(), layer: z.string().min(1).max(200).optional(), session: z.number().int().nullable().optional(),
}).strict();

/** `dir` is the vault's database directory (default `<vault>/.lorecraft`, where the lock lives). */
export function endpointPath(dir: string): string {
  return join(dir, ENDPOINT_FILE);
}

export async function readEndpoint(dir: string): Promise<Endpoint | null> {
  try {
    return EndpointZ.parse(JSON.parse(await readFile(endpointPath(dir), 'utf8')));
  } catch {
    return null;
  }
}

/** JSON-RPC over a connected socket, newline-delimited (the stdio framing). */
export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buf = new ReadBuffer();
  private closed = false;

  constructor(private readonly socket: Socket, private readonly initial?: Buffer) {}

  async start(): Promise<void> {
    this.socket.on('data', (c: Buffer) => this.feed(c));
    this.socket.on('error', (e) => this.onerror?.(e));
    this.socket.on('close', () => { if (!this.closed) { this.closed = true; this.onclose?.(); } });
    if (this.initial?.length) this.feed(this.initial);
    this.socket.resume();
  }

  private feed(chunk: Buffer): void {
    try {
      this.buf.append(chunk);
    } catch (e) {
      this.onerror?.(e as Error);
      this.socket.destroy();
      return;
    }
    for (;;) {
      try {
        const m = this.buf.readMessage();
        if (!m) break;
        this.onmessage?.(m);
      } catch (e) {
        this.onerror?.(e as Error); // one malformed line is dropped; the connection keeps serving
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((ok) => {
      if (this.socket.destroyed) return ok();
      if (this.socket.write(serializeMessage(message))) ok(); else this.socket.once('drain', () => ok());
    });
  }

  async close(): Promise<void> {
    this.socket.end();
    if (!this.closed) { this.closed = true; this.onclose?.(); }
  }
}

export interface BridgeOptions extends Omit<McpServerDeps, 'host' | 'mode'> {
  /** the vault (default host.vaultDir) */
  vaultDir?: string;
  /** directory of the endpoint file: the vault's database dir (default `<vault>/.lorecraft`) */
  dir?: string;
  /** refuse read-write clients even when an editor is given */
  readOnly?: boolean;
}

export interface McpBridge {
  port: number;
  endpointFile: string;
  /** live connections */
  connections(): number;
  close(): Promise<void>;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Serve MCP for `host` on a local token-guarded endpoint and advertise it in the vault. */
export async function startMcpBridge(host: McpServerDeps['host'], opts: BridgeOptions = {}): Promise<McpBridge> {
  const held = host as Partial<CoreHost>;
  const dir = opts.dir ?? held.dbDir ?? join(opts.vaultDir ?? host.vaultDir, '.lorecraft');
  const token = randomBytes(32).toString('base64url');
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const sockets = new Set<Socket>();
  const closers = new Set<() => Promise<void>>();

  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    const refuse = (error: string) => { socket.end(JSON.stringify({ ok: false, error }) + '\n'); };
    const timer = setTimeout(() => refuse('handshake timeout'), 5000);
    const onData = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const nl = pending.indexOf('\n');
      if (nl < 0) {
        if (pending.length > MAX_HANDSHAKE) { clearTimeout(timer); socket.off('data', onData); refuse('handshake too long'); }
        return;
      }
      clearTimeout(timer);
      socket.pause(); // nothing may be lost before the transport listens
      socket.off('data', onData);
      let hs: z.infer<typeof HandshakeZ>;
      try {
        hs = HandshakeZ.parse(JSON.parse(pending.subarray(0, nl).toString('utf8')));
      } catch {
        return refuse('malformed handshake');
      }
      if (!sameToken(hs.token, token)) return refuse('wrong token');
      const players = hs.audience === 'players';
      const mode: McpMode = hs.mode === 'read-write' && opts.editor && !opts.readOnly && !players ? 'read-write' : 'read';
      if (hs.mode === 'read-write' && mode === 'read' && !players) {
        return refuse(opts.readOnly
          ? `read-write was asked, but process ${process.pid} holds this vault read-only (a \`lorecraft mcp\` started without --read-write). `
            + 'To get write access, stop that server (or the client that started it) and start `lorecraft mcp --read-write`, or open the vault in the app'
          : 'read-write was asked, but this app does not accept read-write MCP clients (no write-back available)');
      }
      const { vaultDir: _v, dir: _d, readOnly: _r, ...deps } = opts;
      let server: ReturnType<typeof createMcpServer>;
      try {
        server = createMcpServer({ ...deps, host, mode, log, ...(players ? { audience: { audience: 'players' as const, ...(hs.layer ? { layer: hs.layer } : {}), session: hs.session ?? null } } : {}) });
      } catch (e) {
        return refuse(e instanceof Error ? e.message : String(e));
      }
      socket.write(JSON.stringify({ ok: true, mode }) + '\n');
      const transport = new SocketTransport(socket, pending.subarray(nl + 1));
      const close = async () => { await server.close().catch(() => {}); };
      closers.add(close);
      transport.onclose = () => { closers.delete(close); };
      server.connect(transport).catch((e: unknown) => { log(`mcp bridge: ${String(e)}`); socket.destroy(); });
    };
    socket.on('data', onData);
  };

  const server: Server = createServer(onConnection);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, HOST, () => { server.off('error', fail); ok(); });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;

  const file = endpointPath(dir);
  await mkdir(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const ep: Endpoint = { version: 1, host: HOST, port, token, pid: process.pid };
  await writeFile(tmp, JSON.stringify(ep) + '\n', { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
  try { held.lock?.update({ mcpEndpoint: file }); } catch { /* the endpoint file is what relays read */ }

  let closed = false;
  return {
    port,
    endpointFile: file,
    connections: () => sockets.size,
    async close() {
      if (closed) return;
      closed = true;
      // Remove the advertisement first (only if it is still ours), then stop serving.
      const cur = await readEndpoint(dir);
      if (cur && cur.token === token) await rm(file, { force: true });
      await new Promise<void>((ok) => server.close(() => ok()));
      await Promise.all([...closers].map((c) => c()));
      for (const s of sockets) s.destroy();
    },
  };
}
