/**
 * `lorecraft web [--vault DIR] [--port N] [--renderer DIR]`: the web shell.
 * Serves the built renderer and the contract on 127.0.0.1 with a per-launch
 * token, prints the URL (and a machine-readable `LORECRAFT_URL=...` line), and
 * runs until SIGINT/SIGTERM, then closes the core (Kùzu closes cleanly).
 * Without --vault it opens the user's copy of the bundled sample world.
 */
import { resolve } from 'node:path';
import type { CliIo } from '../io.js';
import { parseArgs } from '../io.js';

const USAGE = 'usage: lorecraft web [--vault DIR] [--port N (0 = any free port)] [--renderer DIR]';

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { flags, positionals, errors } = parseArgs(argv, { strings: ['vault', 'port', 'renderer'], booleans: ['help'] });
  if (flags.help) { io.out(USAGE); return 0; }
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (errors.length || positionals.length || !Number.isInteger(port) || port < 0 || port > 65535) {
    for (const e of errors) io.err(`lorecraft web: ${e}`);
    if (positionals.length) io.err(`lorecraft web: unexpected argument '${positionals[0]}'`);
    if (!Number.isInteger(port) || port < 0 || port > 65535) io.err(`lorecraft web: --port must be 0..65535, got '${String(flags.port)}'`);
    io.err(USAGE);
    return 2;
  }

  // Listen for the stop signals before anything else: with no listener, Node
  // leaves SIGTERM's default action in place and the process dies uncleanly
  // (Kùzu unclosed) if a signal lands while the vault is still opening — a
  // test harness stopping the shell right after LORECRAFT_URL hit exactly that.
  const stopped = new Promise<NodeJS.Signals>((done) => {
    process.once('SIGINT', () => done('SIGINT'));
    process.once('SIGTERM', () => done('SIGTERM'));
  });

  const { CoreSession, openWatchedCore } = await import('../../core/index.js');
  // MCP bridge (issue 7, main/mcp): a `lorecraft mcp` for the open vault relays to this process.
  const { withMcpBridge } = await import('../../mcp/host-bridge.js');
  const { createHandlers } = await import('../../app/handlers/index.js');
  const { startWebServer } = await import('../../web/server.js');
  const paths = await import('../../web/paths.js');

  let vaultDir: string;
  if (typeof flags.vault === 'string') vaultDir = resolve(flags.vault);
  else {
    const sample = await paths.ensureSampleWorld(paths.userDataDir());
    vaultDir = sample.dir;
    io.out(`no --vault given: ${sample.copied ? 'copied the sample world to' : 'opening the sample world at'} ${vaultDir}`);
  }

  let server: Awaited<ReturnType<typeof startWebServer>> | null = null;
  // on a terminal: files read / total on stderr while the vault opens (before the URL is printed, no page can show it)
  const { progressLine, withOpenProgress } = await import('../progress.js');
  const progress = progressLine(io);
  const session = new CoreSession(withOpenProgress(progress, (event, payload) => server?.emit(event, payload)), withMcpBridge(openWatchedCore, { log: (l) => io.err(l) }));
  try {
    server = await startWebServer({
      rendererDir: typeof flags.renderer === 'string' ? resolve(flags.renderer) : paths.rendererDir(),
      handlers: createHandlers(session),
      readAsset: (ref) => session.current().readAsset(ref),
      port,
      onError: (ch, err) => io.err(`lorecraft web: ${ch}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`),
    });
    await session.open(vaultDir).finally(() => progress.end());
  } catch (err) {
    io.err(`lorecraft web: ${err instanceof Error ? err.message : String(err)}`);
    await server?.close();
    await session.close().catch(() => undefined);
    return 1;
  }

  io.out(`Lorecraft is serving ${vaultDir}`);
  io.out(`open ${server.url}`);
  io.out(`LORECRAFT_URL=${server.url}`);
  io.out('press Ctrl+C to stop');

  const signal = await stopped;
  io.err(`lorecraft web: ${signal}, closing`);
  await server.close();
  await session.close();
  return 0;
}
