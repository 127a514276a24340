/**
 * Electron main: thin. Opens one window over the same CoreSession + handler
 * table as the web shell, with IPC as the transport. Vault to open, in order:
 * `--vault DIR` (or LORECRAFT_VAULT), the most recent vault, else the user's
 * copy of the bundled sample world. Dev mode (LORECRAFT_DEV_URL) loads the Vite
 * dev server with hot reload. Quitting closes the core first (Kùzu must close).
 * One instance per user: a second launch focuses the window (opening its --vault).
 * `--cli …` never gets here (entry.ts).
 */
import { app, dialog, Menu, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEmitter, registerHandlers } from '../../shared/rpc.js';
import { createHandlers } from '../app/handlers/index.js';
import { ensureSampleWorld } from '../web/paths.js';
import { CoreSession, openWatchedCore } from '../core/index.js';
import { withMcpBridge } from '../mcp/host-bridge.js';
import { ElectronTransport } from './ipc.js';
import { buildMenu } from './menu.js';
import { RecentVaults } from './recent.js';
import { isRendererUrl } from './sender.js';
import { launchData, vaultToOpen } from './single-instance.js';
import { createMainWindow } from './window.js';
import { handleAssets, registerAssetScheme } from './asset-protocol.js';

const devUrl = process.env.LORECRAFT_DEV_URL;
if (process.env.LORECRAFT_USER_DATA) app.setPath('userData', process.env.LORECRAFT_USER_DATA);

function argVault(): string | undefined {
  const i = process.argv.indexOf('--vault');
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? process.env.LORECRAFT_VAULT;
}

/** dist/main/electron/main.cjs -> the app root (asar in a packaged app). */
const appDir = app.getAppPath();
const rendererUrl = devUrl ?? pathToFileURL(join(appDir, 'dist', 'renderer', 'index.html')).href;
const sampleSource = app.isPackaged ? join(process.resourcesPath, 'sample-world') : join(appDir, 'resources', 'sample-world');

// one instance: a second launch focuses this one's window (single-instance.ts)
if (!app.requestSingleInstanceLock(launchData(argVault()))) app.quit();
registerAssetScheme();

app.whenReady().then(async () => {
  const recent = new RecentVaults(join(app.getPath('userData'), 'recent-vaults.json'));
  const transport = new ElectronTransport();
  const emit = createEmitter((event, payload) => {
    if (event === 'vault-opened') { recent.add((payload as { vaultDir: string }).vaultDir); refreshMenu(); }
    transport.push(event, payload);
  });
  // every vault the window opens also serves MCP, so `lorecraft mcp` for it relays here
  const session = new CoreSession(emit, withMcpBridge(openWatchedCore));
  registerHandlers(transport, createHandlers(session), {
    allowSender: (ctx) => isRendererUrl(ctx.senderUrl, rendererUrl),
    onError: (ch, err) => console.error(`lorecraft: ${ch}:`, err),
  });
  handleAssets((ref) => session.current().readAsset(ref));

  const win = createMainWindow({ preload: join(appDir, 'dist', 'preload', 'preload.cjs'), url: rendererUrl, dev: Boolean(devUrl) });
  transport.attach(win.webContents);
  app.on('second-instance', (_e, _argv, _cwd, data) => {
    if (win.isMinimized()) win.restore();
    win.focus();
    const vault = vaultToOpen(data, session.isOpen ? session.current().vaultDir : null);
    if (vault) void open(vault);
  });

  const open = async (dir: string) => {
    try {
      await session.open(dir);
    } catch (err) {
      dialog.showErrorBox('Cannot open vault', `${dir}\n\n${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const openSample = async () => open((await ensureSampleWorld(app.getPath('userData'), sampleSource)).dir);

  /** File > Export As: a save dialog (a folder for a site), then the core's export at the app's view (layer, session) */
  const exportAs = async (format: 'site' | 'lorebook' | 'json' | 'mermaid' | 'dot', audience: 'gm' | 'players') => {
    if (!session.isOpen) return;
    const core = session.current();
    const at = core.viewAt();
    const name = { site: `${audience}-wiki`, lorebook: 'lorebook.json', json: 'world.json', mermaid: 'world.mmd', dot: 'world.dot' }[format];
    const r = await dialog.showSaveDialog(win, { title: `Export (${audience})`, defaultPath: join(app.getPath('documents'), name), properties: ['createDirectory', 'showOverwriteConfirmation'] });
    if (r.canceled || !r.filePath) return;
    try {
      const done = await core.exportTo({ format, audience, layer: at.layer, session: at.session }, r.filePath);
      void dialog.showMessageBox(win, { type: 'info', message: `Exported ${done.result.entities} entities (${audience}, ${done.result.layer}${done.result.session !== null ? `, session ${done.result.session}` : ''})`, detail: r.filePath });
    } catch (err) {
      dialog.showErrorBox('Export failed', err instanceof Error ? err.message : String(err));
    }
  };

  function refreshMenu(): void {
    Menu.setApplicationMenu(buildMenu(recent.list(), {
      openVault: () => {
        void dialog.showOpenDialog(win, { title: 'Open Vault', properties: ['openDirectory', 'createDirectory'] })
          .then((r) => { if (!r.canceled && r.filePaths[0]) void open(r.filePaths[0]); });
      },
      openRecent: (dir) => void open(dir),
      clearRecent: () => { recent.clear(); refreshMenu(); },
      openSample: () => void openSample(),
      resync: () => { if (session.isOpen) void session.current().sync({ full: true }); },
      openDocs: () => void shell.openExternal('https://github.com/lorecraft/lorecraft#readme'),
      exportDialog: () => emit('export-open', {}),
      exportAs: (format, audience) => void exportAs(format, audience),
    }, Boolean(devUrl)));
  }
  refreshMenu();

  const initial = argVault() ?? recent.list()[0];
  if (initial) await open(initial); else await openSample();
  if (!session.isOpen) await openSample();

  let closing = false;
  app.on('before-quit', (e) => {
    if (closing) return;
    e.preventDefault();
    closing = true;
    void session.close().catch((err: unknown) => console.error('lorecraft: closing the core:', err)).finally(() => app.quit());
  });
}).catch((err: unknown) => {
  dialog.showErrorBox('Lorecraft could not start', err instanceof Error ? err.stack ?? err.message : String(err));
  app.exit(1);
});

app.on('window-all-closed', () => app.quit());
