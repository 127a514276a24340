/**
 * The stdio side of the bridge: connect to the endpoint a running Lorecraft
 * process advertises for this vault, authenticate, then pass bytes both ways
 * (stdin -> socket, socket -> stdout) untouched. Nothing but the relayed
 * JSON-RPC is ever written to stdout.
 */
import { connect, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { readEndpoint, type Endpoint } from './bridge.js';
import type { McpAudience, McpMode } from './context.js';

export interface RelayConnection {
  endpoint: Endpoint;
  mode: McpMode;
  /** pipe `input` to the bridge and the bridge to `output`; resolves when either side ends */
  pipe(input: Readable, output: Writable): Promise<void>;
  close(): void;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Connect to the bridge advertised in `dir` (the vault's database dir). Resolves null when there is no endpoint or it
 * is stale (dead pid, refused connection); rejects when a live bridge refuses us
 * (wrong token, read-write not allowed) — that is worth telling the user.
 */
export async function connectRelay(dir: string, mode: McpMode, timeoutMs = 3000, audience?: McpAudience): Promise<RelayConnection | null> {
  const ep = await readEndpoint(dir);
  if (!ep || !pidAlive(ep.pid)) return null;
  const socket: Socket | null = await new Promise((ok) => {
    const s = connect({ host: ep.host, port: ep.port });
    const t = setTimeout(() => { s.destroy(); ok(null); }, timeoutMs);
    s.once('connect', () => { clearTimeout(t); ok(s); });
    s.once('error', () => { clearTimeout(t); ok(null); });
  });
  if (!socket) return null;
  const view = audience?.audience === 'players' ? { audience: 'players', ...(audience.layer ? { layer: audience.layer } : {}), session: audience.session ?? null } : {};
  socket.write(JSON.stringify({ token: ep.token, mode, ...view }) + '\n');
  const { reply, rest } = await new Promise<{ reply: { ok: boolean; error?: string; mode?: McpMode } | null; rest: Buffer }>((ok) => {
    let buf = Buffer.alloc(0);
    const t = setTimeout(() => done(null, Buffer.alloc(0)), timeoutMs);
    const done = (r: { ok: boolean; error?: string; mode?: McpMode } | null, rest: Buffer) => {
      clearTimeout(t); socket.off('data', onData); socket.pause(); ok({ reply: r, rest });
    };
    const onData = (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try {
        done(JSON.parse(buf.subarray(0, nl).toString('utf8')), buf.subarray(nl + 1));
      } catch {
        done(null, Buffer.alloc(0));
      }
    };
    socket.on('data', onData);
    socket.once('close', () => done(null, Buffer.alloc(0)));
  });
  if (!reply) { socket.destroy(); return null; }
  if (!reply.ok) { socket.destroy(); throw new Error(`the Lorecraft process holding this vault (pid ${ep.pid}) refused the MCP connection: ${reply.error ?? 'no reason given'}`); }
  return {
    endpoint: ep,
    mode: reply.mode ?? mode,
    close: () => socket.destroy(),
    pipe: (input, output) => new Promise<void>((ok) => {
      let ended = false;
      const end = () => { if (ended) return; ended = true; input.unpipe(socket); socket.end(); ok(); };
      if (rest.length) output.write(rest);
      socket.on('data', (c: Buffer) => output.write(c));
      socket.once('close', end);
      socket.once('error', end);
      input.once('end', end);
      input.pipe(socket, { end: false });
      socket.resume();
    }),
  };
}
