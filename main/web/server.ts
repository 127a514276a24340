/**
 * The web shell's server: the built renderer over HTTP and the contract over a
 * WebSocket (`/ws`), on 127.0.0.1 only, guarded by a per-launch random token.
 *
 * Access rules (each refusal is a 403, the socket is destroyed for upgrades):
 *  - the Host header must be 127.0.0.1:PORT or localhost:PORT (DNS rebinding);
 *  - the token must come as `?token=` or as the HttpOnly cookie we set when the
 *    page was first opened with the right `?token=` (assets and the socket then
 *    carry it without it being in every URL);
 *  - a WebSocket's Origin, when sent, must be our own origin.
 *
 * `GET /vault-file/<ref>` serves an image of the vault (`ref` URL-encoded, one
 * segment) through `readAsset` (the core's: confined to the vault, images only);
 * a refused path is a 403, a missing file a 404. The response is sandboxed (an
 * SVG opened directly runs no script).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CallContext, EventName, Handlers } from '../../shared/contract.js';
import {
  createEmitter, registerHandlers, WsClientMessageZ, type Emit, type Reply, type ServerTransport, type WsServerMessage,
} from '../../shared/rpc.js';
import { ASSET_BASE, assetHeaders, assetStatus } from '../app/handlers/assets.js';

export const HOST = '127.0.0.1';
const COOKIE = 'lorecraft_token';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.map': 'application/json',
};

export interface WebServerOptions {
  rendererDir: string;
  handlers: Handlers;
  /** 0 (default) picks a free port */
  port?: number;
  /** fixed token (tests); default 32 random bytes, base64url */
  token?: string;
  onError?: (channel: string, err: unknown) => void;
  /** the vault's images for `GET /vault-file/<ref>` (Core.readAsset); absent: 404 */
  readAsset?: (ref: string) => Promise<{ mime: string; bytes: Buffer }>;
}

/** where the web shell serves vault images (the renderer asks the API for it: `vault-asset-base`) */
const ASSET_ROUTE = ASSET_BASE.ws;

export interface WebServer {
  url: string;
  port: number;
  token: string;
  /** push an event to every connected renderer */
  emit: Emit;
  close(): Promise<void>;
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const root = await realpath(opts.rendererDir).catch(() => {
    throw new Error(`the built renderer is missing at ${opts.rendererDir}: run \`npm run build:renderer\` first`);
  });
  let port = 0;
  const hosts = () => [`${HOST}:${port}`, `localhost:${port}`];

  /** 'query' when the token came in the URL (we then set the cookie), 'cookie', or null. */
  function authorise(req: IncomingMessage, url: URL): 'query' | 'cookie' | null {
    if (!hosts().includes(req.headers.host ?? '')) return null;
    if (sameToken(url.searchParams.get('token') ?? undefined, token)) return 'query';
    if (sameToken(cookieToken(req), token)) return 'cookie';
    return null;
  }

  async function serveFile(res: ServerResponse, pathname: string, setCookie: boolean): Promise<void> {
    const rel = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    const file = resolve(root, '.' + rel);
    if (file !== root && !file.startsWith(root + sep)) return void res.writeHead(404).end();
    // read in this turn of the event loop: the promise API's stat, open, fstat, reads of 512 kB and close each wait for
    // a turn, and while the opening's sync runs (synchronous reads in chunks) each waited behind one of its chunks — the
    // 1.7 MB bundle reached the page 2-2.3 s after it was asked for at load ~15-20, most of a big graph's first picture
    // (issue 19 point 2). From the page cache a few MB cost a few ms here.
    const found = (() => { try { return statSync(file).isFile(); } catch { return false; } })();
    const target = found ? file : join(root, 'index.html'); // client-side routes fall back to the app
    const body = readFileSync(target);
    res.writeHead(200, {
      'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'content-security-policy': [
        "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
        `connect-src 'self' ws://${HOST}:${port} ws://localhost:${port}`, "object-src 'none'", "base-uri 'none'",
        "frame-ancestors 'none'", "form-action 'none'",
      ].join('; '),
      ...(setCookie ? { 'set-cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/` } : {}),
    });
    res.end(body);
  }

  async function serveAsset(res: ServerResponse, pathname: string): Promise<void> {
    let ref: string;
    try {
      ref = decodeURIComponent(pathname.slice(ASSET_ROUTE.length));
    } catch {
      return void res.writeHead(400).end();
    }
    if (!opts.readAsset) return void res.writeHead(404).end();
    try {
      const { mime, bytes } = await opts.readAsset(ref);
      res.writeHead(200, assetHeaders(mime));
      res.end(bytes);
    } catch (err) {
      const status = assetStatus(err);
      if (status === 500) opts.onError?.('vault-file', err);
      // refusals say why (CoreError messages name the vault-relative path only); other failures say nothing of the disk
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(status === 500 ? 'could not read the file' : (err as Error).message);
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${HOST}`);
    const auth = authorise(req, url);
    if (!auth) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Lorecraft: missing or wrong token. Open the URL that `lorecraft web` printed.\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    if (url.pathname.startsWith(ASSET_ROUTE)) return void serveAsset(res, url.pathname);
    serveFile(res, url.pathname, auth === 'query').catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    });
  });

  // The contract over the socket: a ServerTransport whose routes answer WsClientMessages.
  const routes = new Map<string, (payload: unknown, ctx: CallContext) => Promise<Reply>>();
  const transport: ServerTransport = { handle: (ch, fn) => void routes.set(ch, fn) };
  registerHandlers(transport, opts.handlers, { onError: opts.onError });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  const send = (ws: WebSocket, msg: WsServerMessage) => { if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg)); };

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const ctx: CallContext = { transport: 'ws', senderUrl: req.headers.origin };
    ws.on('message', (data) => {
      let msg;
      try {
        msg = WsClientMessageZ.parse(JSON.parse(String(data)));
      } catch {
        return ws.close(1003, 'malformed message');
      }
      const route = routes.get(msg.channel);
      const reply: Promise<Reply> = route
        ? route(msg.payload, ctx)
        : Promise.resolve({ ok: false, error: { code: 'unknown-channel', message: `unknown channel '${msg.channel}'` } });
      void reply.then((r) => send(ws, { kind: 'reply', id: msg.id, reply: r }));
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', `http://${HOST}`);
    const origin = req.headers.origin;
    const originOk = !origin || hosts().some((h) => origin === `http://${h}`);
    if (url.pathname !== '/ws' || !authorise(req, url) || !originOk) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return void socket.destroy();
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, HOST, () => { server.off('error', fail); ok(); });
  });
  port = (server.address() as AddressInfo).port;

  const emit = createEmitter((event: EventName, payload: unknown) => {
    for (const ws of wss.clients) send(ws, { kind: 'event', event, payload });
  });

  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    port,
    token,
    emit,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((ok) => wss.close(() => ok()));
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
