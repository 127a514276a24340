/**
 * Where things are on disk for the shells: the app root (the folder holding our
 * package.json), the built renderer, the bundled sample world, the user data
 * folder, and the copy of the sample world opened when no vault is chosen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Walk up from this module (source: main/web, bundle: dist/main) to the folder with lorecraft's package.json. */
export function appRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'lorecraft') return dir;
      } catch { /* not ours: keep walking */ }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find lorecraft's package.json above ${from}`);
    dir = up;
  }
}

export function rendererDir(): string {
  return process.env.LORECRAFT_RENDERER_DIR ?? join(appRoot(), 'dist', 'renderer');
}

export function bundledSampleWorld(): string {
  return process.env.LORECRAFT_SAMPLE_WORLD ?? join(appRoot(), 'resources', 'sample-world');
}

/** Per-user data folder (what Electron calls userData), following each OS's convention. */
export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.LORECRAFT_DATA_DIR) return env.LORECRAFT_DATA_DIR;
  const home = env.HOME ?? homedir();
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'lorecraft');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'lorecraft');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'lorecraft');
}

/**
 * The user's copy of the sample world in `dataDir/sample-world`: copied from
 * `source` the first time (without any .lorecraft database), reused afterwards
 * so the GM's edits to it survive. The copy is made beside and renamed into place,
 * so an interrupted copy never leaves half a vault.
 */
export async function ensureSampleWorld(dataDir: string, source: string = bundledSampleWorld()): Promise<{ dir: string; copied: boolean }> {
  const dir = join(dataDir, 'sample-world');
  if (existsSync(join(dir, 'lorecraft.yaml'))) return { dir, copied: false };
  if (!existsSync(join(source, 'lorecraft.yaml'))) throw new Error(`the bundled sample world is missing: ${source}/lorecraft.yaml`);
  await mkdir(dataDir, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await cp(source, tmp, { recursive: true, filter: (src) => !/[\\/]\.lorecraft(?:[\\/]|$)/.test(src) });
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
  return { dir, copied: true };
}
