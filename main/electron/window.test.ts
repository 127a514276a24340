/**
 * The main window's security, on what createMainWindow really hands Electron:
 * the BrowserWindow options (contextIsolation, sandbox, no nodeIntegration, no
 * webviews), permissions refused, navigation away from the renderer blocked (http
 * links go to the OS browser), window.open denied, and the dev CSP header. Electron
 * itself is outside the project: a recording stand-in replaces the module.
 * (The packaged CSP is a meta tag in the built index.html: dist:check asserts it.)
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Handler = (...args: unknown[]) => unknown;
const rec = vi.hoisted(() => ({
  options: [] as unknown[],
  on: new Map<string, (...a: unknown[]) => unknown>(),
  windowOpen: null as null | ((d: { url: string }) => unknown),
  permission: null as null | ((...a: unknown[]) => unknown),
  headers: null as null | ((...a: unknown[]) => unknown),
  opened: [] as string[],
  loaded: [] as string[],
}));

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = {
      on: (ev: string, fn: Handler) => { rec.on.set(ev, fn); },
      setWindowOpenHandler: (fn: (d: { url: string }) => unknown) => { rec.windowOpen = fn; },
      getURL: () => 'file:///app/dist/renderer/index.html',
    };
    constructor(opts: unknown) { rec.options.push(opts); }
    once() { /* ready-to-show */ }
    show() { /* shown */ }
    loadURL(url: string) { rec.loaded.push(url); return Promise.resolve(); }
  }
  const session = { defaultSession: {
    setPermissionRequestHandler: (fn: Handler) => { rec.permission = fn; },
    webRequest: { onHeadersReceived: (fn: Handler) => { rec.headers = fn; } },
  } };
  const shell = { openExternal: (url: string) => { rec.opened.push(url); return Promise.resolve(); } };
  return { BrowserWindow, session, shell };
});

const { createMainWindow, mainWindowOptions, DEV_CSP } = await import('./window.js');

beforeEach(() => {
  rec.options.length = 0; rec.on.clear(); rec.windowOpen = null; rec.permission = null; rec.headers = null; rec.opened.length = 0; rec.loaded.length = 0;
});

describe('the main window', () => {
  it('is created with the locked-down options', () => {
    createMainWindow({ preload: '/app/dist/preload/preload.cjs', url: 'file:///app/dist/renderer/index.html', dev: false });
    expect(rec.options).toEqual([mainWindowOptions('/app/dist/preload/preload.cjs')]);
    const web = (rec.options[0] as { webPreferences: Record<string, unknown> }).webPreferences;
    expect(web).toMatchObject({ preload: '/app/dist/preload/preload.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false,
      nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false });
    expect(rec.loaded).toEqual(['file:///app/dist/renderer/index.html']);
    expect(rec.headers).toBeNull(); // packaged: the CSP is the build's meta tag
  });

  it('refuses permissions, navigation away, webviews and new windows', () => {
    createMainWindow({ preload: '/p.cjs', url: 'file:///app/dist/renderer/index.html', dev: false });
    const granted: boolean[] = [];
    rec.permission!({}, 'media', (ok: boolean) => granted.push(ok));
    expect(granted).toEqual([false]);

    const nav = (url: string) => { const e = { prevented: false, preventDefault() { this.prevented = true; } }; rec.on.get('will-navigate')!(e, url); return e.prevented; };
    expect(nav('https://evil.example/')).toBe(true);
    expect(nav('file:///etc/passwd')).toBe(true);
    expect(nav('file:///app/dist/renderer/index.html')).toBe(false);
    expect(rec.opened).toEqual(['https://evil.example/']); // http(s) goes to the OS browser, file:// nowhere

    const wv = { prevented: false, preventDefault() { this.prevented = true; } };
    rec.on.get('will-attach-webview')!(wv);
    expect(wv.prevented).toBe(true);

    expect(rec.windowOpen!({ url: 'https://docs.example/' })).toEqual({ action: 'deny' });
    expect(rec.windowOpen!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(rec.opened).toEqual(['https://evil.example/', 'https://docs.example/']);
  });

  it('sets a CSP header in dev (Vite server) with no remote sources and no plugins', () => {
    createMainWindow({ preload: '/p.cjs', url: 'http://127.0.0.1:5173/', dev: true });
    let headers: Record<string, string[]> = {};
    rec.headers!({ responseHeaders: { 'X-A': ['1'] } }, (r: { responseHeaders: Record<string, string[]> }) => { headers = r.responseHeaders; });
    expect(headers['Content-Security-Policy']).toEqual([DEV_CSP]);
    expect(DEV_CSP).toContain("default-src 'self'");
    expect(DEV_CSP).toContain("object-src 'none'");
    expect(DEV_CSP).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });
});
