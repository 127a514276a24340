/**
 * `lorecraft-asset://vault/<ref>`: the vault's images for the Electron window
 * (the web shell's `/vault-file/<ref>`), served by the same Core.readAsset
 * (confined to the vault, images only) with the same headers and statuses.
 * The scheme is registered as privileged before the app is ready; the handler
 * once it is.
 */
import { protocol } from 'electron';
import { assetHeaders, assetStatus } from '../web/handlers/assets.js';

export const ASSET_SCHEME = 'lorecraft-asset';

/** Call before `app.whenReady()`. */
export function registerAssetScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: ASSET_SCHEME, privileges: { standard: true, secure: true } }]);
}

export function handleAssets(readAsset: (ref: string) => Promise<{ mime: string; bytes: Buffer }>): void {
  protocol.handle(ASSET_SCHEME, async (req) => {
    const url = new URL(req.url);
    if (url.hostname !== 'vault' || req.method !== 'GET') return new Response(null, { status: 404 });
    let ref: string;
    try {
      ref = decodeURIComponent(url.pathname.slice(1));
    } catch {
      return new Response(null, { status: 400 });
    }
    try {
      const { mime, bytes } = await readAsset(ref);
      return new Response(new Uint8Array(bytes), { status: 200, headers: assetHeaders(mime) });
    } catch (err) {
      return new Response(null, { status: assetStatus(err) });
    }
  });
}
