/**
 * The answer to one `lorecraft-asset://vault/<ref>` request (asset-protocol.ts
 * registers it): `ref` URL-decoded and handed to Core.readAsset, which confines
 * it to the vault and to image types; the headers and statuses are the web
 * shell's (`/vault-file/<ref>`). Pure (no Electron), so it is tested in Node.
 */
import { assetHeaders, assetStatus } from '../app/handlers/assets.js';

export async function assetResponse(
  requestUrl: string, method: string, readAsset: (ref: string) => Promise<{ mime: string; bytes: Buffer }>,
): Promise<Response> {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return new Response(null, { status: 400 });
  }
  if (url.hostname !== 'vault' || (method !== 'GET' && method !== 'HEAD')) return new Response(null, { status: 404 });
  let ref: string;
  try {
    ref = decodeURIComponent(url.pathname.slice(1));
  } catch {
    return new Response(null, { status: 400 });
  }
  try {
    const { mime, bytes } = await readAsset(ref);
    return new Response(method === 'HEAD' ? null : new Uint8Array(bytes), { status: 200, headers: assetHeaders(mime) });
  } catch (err) {
    return new Response(null, { status: assetStatus(err) });
  }
}
