/**
 * Exports of the world at a session for an audience (docs/export.md):
 * `site` (a static HTML wiki), `lorebook` (SillyTavern World Info), `json`
 * (the versioned world document), `mermaid` / `dot` (a neighbourhood diagram).
 * For `players`, everything comes through the visibility model
 * (main/visibility): nothing GM-only reaches any format.
 */
import { mkdir, rm, writeFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CoreError } from '../domain/errors.js';
import type { TimelineInput } from '../timeline/compile.js';
import type { Audience } from '../visibility/rules.js';
import { worldAt, type WorldView } from '../visibility/world.js';
import { dot, mermaid } from './diagram.js';
import { worldJson } from './json.js';
import { lorebook } from './lorebook.js';
import { site, type SiteFile } from './site.js';

export const EXPORT_FORMATS = ['site', 'lorebook', 'json', 'mermaid', 'dot'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportOptions {
  format: ExportFormat;
  audience: Audience;
  layer?: string;
  session?: number | null;
  /** mermaid / dot: the entity at the centre, and how many relationships out */
  focus?: string;
  depth?: number;
}

export interface ExportResult {
  format: ExportFormat;
  audience: Audience;
  layer: string;
  session: number | null;
  /** one file for every format but `site` (then: the site's files, relative to its folder) */
  files: SiteFile[];
  entities: number;
}

export function exportWorld(input: TimelineInput, o: ExportOptions): ExportResult {
  if (!EXPORT_FORMATS.includes(o.format)) throw new CoreError('bad-arguments', `unknown export format '${String(o.format)}' (formats: ${EXPORT_FORMATS.join(', ')})`, { field: 'format' });
  if (o.audience !== 'gm' && o.audience !== 'players') throw new CoreError('bad-arguments', `unknown audience '${String(o.audience)}' (gm or players)`, { field: 'audience' });
  const view: WorldView = worldAt(input, { audience: o.audience, ...(o.layer ? { layer: o.layer } : {}), session: o.session ?? null });
  const one = (name: string, content: string): SiteFile[] => [{ path: name, content }];
  const files = o.format === 'site' ? site(view)
    : o.format === 'lorebook' ? one('lorebook.json', lorebook(view))
      : o.format === 'json' ? one('world.json', worldJson(view))
        : o.format === 'mermaid' ? one('world.mmd', mermaid(view, { ...(o.focus ? { focus: o.focus } : {}), ...(o.depth ? { depth: o.depth } : {}) }))
          : one('world.dot', dot(view, { ...(o.focus ? { focus: o.focus } : {}), ...(o.depth ? { depth: o.depth } : {}) }));
  return { format: o.format, audience: o.audience, layer: view.layer, session: view.session, files, entities: view.entities.length };
}

/**
 * Writes an export: a site into the folder `out` (created; a folder holding anything but an
 * earlier Lorecraft site is refused, so a mistyped path never mixes files into yours), any other
 * format into the file `out`. Returns the paths written.
 */
export async function writeExport(result: ExportResult, out: string): Promise<string[]> {
  const target = path.resolve(out);
  if (result.format === 'site') {
    const existing = await readdir(target).catch(() => null);
    if (existing && existing.length && !existing.includes('search-index.js')) {
      throw new CoreError('conflict', `${out}: the folder is not empty and holds no earlier Lorecraft site; choose an empty or new folder`, { out });
    }
    if (existing?.length) for (const d of ['entity', 'types', 'tags']) await rm(path.join(target, d), { recursive: true, force: true });
    const written: string[] = [];
    for (const f of result.files) {
      const p = path.join(target, f.path);
      await mkdir(path.dirname(p), { recursive: true });
      await writeFile(p, f.content);
      written.push(p);
    }
    return written;
  }
  const st = await stat(target).catch(() => null);
  if (st?.isDirectory()) throw new CoreError('bad-arguments', `${out} is a folder: --format ${result.format} writes one file`, { out });
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, result.files[0]!.content);
  return [target];
}
