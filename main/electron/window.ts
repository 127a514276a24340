/**
 * The main window, locked down: contextIsolation, sandbox, no nodeIntegration,
 * no webviews, no permissions, no navigation away from the renderer, no new
 * windows; http(s) links open in the OS browser. The CSP is a meta tag in the
 * built index.html; in dev (Vite server) a header with what HMR needs is set.
 */
import { BrowserWindow, session, shell, type BrowserWindowConstructorOptions } from 'electron';

export interface WindowOptions {
  preload: string;
  /** file:// URL of dist/renderer/index.html, or the Vite dev server URL */
  url: string;
  dev: boolean;
}

export const DEV_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
  + "img-src 'self' data: blob: lorecraft-asset:; connect-src 'self' ws://127.0.0.1:* http://127.0.0.1:*; object-src 'none'";

function openExternally(url: string): void {
  if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
}

/** The options the main window is created with (window.test.ts asserts the security ones). */
export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 900,
    minWidth: 900,
    minHeight: 560,
    title: 'Lorecraft',
    backgroundColor: '#f7f7f5',
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

export function createMainWindow(opts: WindowOptions): BrowserWindow {
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  if (opts.dev) {
    session.defaultSession.webRequest.onHeadersReceived((details, cb) => {
      cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [DEV_CSP] } });
    });
  }
  const win = new BrowserWindow(mainWindowOptions(opts.preload));
  win.once('ready-to-show', () => win.show());
  win.webContents.on('will-navigate', (e, url) => {
    if (url !== win.webContents.getURL()) {
      e.preventDefault();
      openExternally(url);
    }
  });
  win.webContents.on('will-attach-webview', (e) => e.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
  void win.loadURL(opts.url);
  return win;
}
