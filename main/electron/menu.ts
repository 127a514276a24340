/** The application menu: File (open vault, recent vaults, sample world, resync), Edit, View, Help. */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import { basename } from 'node:path';

export interface MenuActions {
  openVault(): void;
  openRecent(dir: string): void;
  clearRecent(): void;
  openSample(): void;
  resync(): void;
  openDocs(): void;
}

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
