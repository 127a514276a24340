/**
 * `lorecraft-asset://vault/<ref>`: the vault's images for the Electron window
 * (the web shell's `/vault-file/<ref>`), answered by assetResponse over the
 * same Core.readAsset. The scheme is registered as privileged before the app
 * is ready, its handler once it is.
 */
import { protocol } from 'electron';
import { assetResponse } from './asset-response.js';

export const ASSET_SCHEME = 'lorecraft-asset';

/** Call before `app.whenReady()`. */
export function registerAssetScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: ASSET_SCHEME, privileges: { standard: true, secure: true } }]);
}

export function handleAssets(readAsset: (ref: string) => Promise<{ mime: string; bytes: Buffer }>): void {
  protocol.handle(ASSET_SCHEME, (req) => assetResponse(req.url, req.method, readAsset));
}
