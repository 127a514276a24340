/**
 * Vault images for the renderer's markdown (`![[map.png|250]]`): the shell says
 * where it serves them, the renderer appends the URL-encoded reference
 * (`base + encodeURIComponent('art/map.png')`). Web shell: `/vault-file/`
 * (same origin, the token cookie guards it); Electron: `lorecraft-asset://vault/`.
 * Both end in Core.readAsset (confined to the vault, images only).
 */
import { z } from 'zod';
import { handler } from './schemas.js';

export const assetHandlers = {
  'vault-asset-base': handler(z.object({}).strict(), z.object({ base: z.string().min(1) })),
};
