/** The application menu: File (open vault, recent vaults, sample world, resync, export), Edit, View, Help. */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import { basename } from 'node:path';

export interface MenuActions {
  openVault(): void;
  openRecent(dir: string): void;
  clearRecent(): void;
  openSample(): void;
  resync(): void;
  openDocs(): void;
  /** `lorecraft export` of the open vault at the app's view (layer, session), to a place chosen in a save dialog */
  exportAs(format: ExportMenuFormat, audience: 'gm' | 'players'): void;
  /** the renderer's Export dialog (every option: layer, session, focus, depth, destination) */
  exportDialog(): void;
}

export type ExportMenuFormat = 'site' | 'lorebook' | 'json' | 'mermaid' | 'dot';

/** File > Export: the common exports in one click each, and the dialog with every option. */
export const EXPORT_ITEMS: Array<{ label: string; format: ExportMenuFormat; audience: 'gm' | 'players' }> = [
  { label: "Players' Wiki (site)…", format: 'site', audience: 'players' },
  { label: "Players' Lorebook (SillyTavern)…", format: 'lorebook', audience: 'players' },
  { label: "Players' World (JSON)…", format: 'json', audience: 'players' },
  { label: 'GM Wiki (site)…', format: 'site', audience: 'gm' },
  { label: 'GM World (JSON)…', format: 'json', audience: 'gm' },
  { label: 'Diagram (Mermaid)…', format: 'mermaid', audience: 'players' },
  { label: 'Diagram (Graphviz DOT)…', format: 'dot', audience: 'players' },
];

export function buildMenu(recent: string[], actions: MenuActions, dev: boolean): Menu {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        { label: 'Open Vault…', accelerator: 'CmdOrCtrl+O', click: () => actions.openVault() },
        {
          label: 'Open Recent',
          submenu: recent.length
            ? [
              ...recent.map((dir) => ({ label: `${basename(dir)} — ${dir}`, click: () => actions.openRecent(dir) })),
              { type: 'separator' as const },
              { label: 'Clear Recent', click: () => actions.clearRecent() },
            ]
            : [{ label: 'No recent vaults', enabled: false }],
        },
        { label: 'Open Sample World', click: () => actions.openSample() },
        { type: 'separator' },
        { label: 'Resync Vault', accelerator: 'CmdOrCtrl+Shift+R', click: () => actions.resync() },
        { type: 'separator' },
        { label: 'Export…', accelerator: 'CmdOrCtrl+E', click: () => actions.exportDialog() },
        {
          label: 'Export As',
          submenu: EXPORT_ITEMS.map((i) => ({ label: i.label, click: () => actions.exportAs(i.format, i.audience) })),
        },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        { role: 'reload' },
        ...(dev ? [{ role: 'toggleDevTools' as const }] : []),
        { type: 'separator' },
        { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'help', submenu: [{ label: 'Lorecraft Documentation', click: () => actions.openDocs() }] },
  ];
  return Menu.buildFromTemplate(template);
}
