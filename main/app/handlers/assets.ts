import type { assetHandlers } from '../../../shared/contract-assets.js';
import type { CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';

/** Where the calling shell serves vault images: the web server's route or Electron's protocol (main/electron/asset-protocol.ts). */
export const ASSET_BASE = { ws: '/vault-file/', ipc: 'lorecraft-asset://vault/' } as const;

export function assetGroup(_session: CoreSession): Group<typeof assetHandlers> {
  return { 'vault-asset-base': async (_req, ctx) => ({ base: ASSET_BASE[ctx.transport] }) };
}

/** HTTP status of a refused asset read (web route and Electron protocol alike). */
export function assetStatus(err: unknown): number {
  const code = (err as { code?: unknown }).code;
  if (code === 'forbidden' || code === 'outside-vault') return 403;
  if (code === 'not-found' || code === 'no-vault') return 404;
  if (code === 'too-large') return 413;
  return 500;
}

/** Headers of a served asset: the right type, never sniffed, sandboxed (an SVG opened directly runs no script). */
export function assetHeaders(mime: string): Record<string, string> {
  return {
    'content-type': mime, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  };
}
