/**
 * The IPC sender check: only our renderer's top document may call the contract.
 * Packaged/built: exactly the file:// URL of dist/renderer/index.html (query and
 * hash ignored). Dev: any page of the Vite dev server's origin (HMR reloads).
 */
export function isRendererUrl(url: string | undefined, rendererUrl: string): boolean {
  if (!url) return false;
  const strip = (u: string) => u.replace(/[?#].*$/, '');
  const base = strip(rendererUrl);
  if (base.startsWith('file://')) return strip(url) === base;
  let origin: string;
  try { origin = new URL(base).origin; } catch { return false; }
  return url.startsWith(origin + '/');
}
