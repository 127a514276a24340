import type { assetHandlers } from '../../../shared/contract-assets.js';
import type { CoreSession } from '../session.js';
import type { Group } from './vault.js';

/** Where the calling shell serves vault images: the web server's route or Electron's protocol (main/electron/asset-protocol.ts). */
export const ASSET_BASE = { ws: '/vault-file/', ipc: 'lorecraft-asset://vault/' } as const;

export function assetGroup(_session: CoreSession): Group<typeof assetHandlers> {
  return { 'vault-asset-base': async (_req, ctx) => ({ base: ASSET_BASE[ctx.transport] }) };
}
