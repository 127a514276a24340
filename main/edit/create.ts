/**
 * New-note planning for createEntity: where the file goes (folder rule, schema
 * `folder`, the folder most notes of that type already live in, else the layer
 * root), how the type is recorded (the first type rule that can produce it),
 * and its text (schema `template` with {{name}}, else a heading).
 */
import { posix } from 'node:path';
import type { EntityType, Schema, VaultConfig } from '../config/types.js';
import type { ModelView } from '../sync/types.js';
import { newNoteText, setField } from './frontmatter.js';
import { invalid } from './rules.js';

export interface TypeMarker { field?: { key: string; value: string }; tag?: string; folder?: string }

/** The first type rule able to produce `type` decides how the note says what it is. */
export function typeMarker(schema: Schema, type: string): TypeMarker {
  const t = type.toLowerCase();
  for (const r of schema.type_rules) {
    if ('field' in r) {
      if (!r.map) return { field: { key: r.field, value: type } };
      const k = Object.entries(r.map).find(([, v]) => v.toLowerCase() === t)?.[0];
      if (k !== undefined) return { field: { key: r.field, value: k } };
    } else if ('tag' in r) {
      if (r.type.toLowerCase() === t) return { tag: r.tag };
    } else if (r.type.toLowerCase() === t) {
      return { folder: r.folder };
    }
  }
  return { field: { key: 'type', value: type } };
}

function layerRoot(cfg: VaultConfig, layer: string): string {
  const l = cfg.layers.find((x) => x.name === layer)!;
  const p = (l.paths[0] ?? '.').replace(/\\/g, '/').replace(/^\.\/?|\/$/g, '');
  return p;
}

/** Folder (vault-relative, '' for the root) for a new note of `def` in `layer`. */
export function folderFor(model: ModelView, def: EntityType, layer: string, marker: TypeMarker): string {
  const cfg = model.config();
  const root = layerRoot(cfg, layer);
  const clean = (f: string) => f.replace(/\\/g, '/').replace(/^\.\/?|\/+$/g, '');
  const inLayer = (f: string) => model.layerOf(posix.join(f || '.', '__probe__.md')) === layer;
  for (const f of [marker.folder, def.folder].filter((x): x is string => !!x).map(clean)) {
    if (inLayer(f)) return f;
    const joined = posix.join(root || '.', f).replace(/^\.\/?/, '');
    if (inLayer(joined)) return joined;
    throw invalid(`folder ${f} of type ${def.name} is not inside layer ${layer}`, { field: 'folder' });
  }
  // where most notes of this type in this layer already are
  const counts = new Map<string, number>();
  for (const e of model.entities()) {
    if (e.placeholder || !e.path || e.layer !== layer || e.type?.toLowerCase() !== def.name.toLowerCase()) continue;
    const d = posix.dirname(e.path);
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  if (best) return best[0] === '.' ? '' : best[0];
  return root;
}

/** Does the vault write tags with a leading '#'? (thellade does: "#NPC") */
export function tagsWithHash(model: ModelView): boolean {
  let hash = 0;
  let plain = 0;
  let seen = 0;
  for (const n of model.notes()) {
    const t = n.frontmatter.tags;
    for (const x of Array.isArray(t) ? t : typeof t === 'string' ? [t] : []) {
      if (typeof x !== 'string') continue;
      if (x.startsWith('#')) hash++; else plain++;
    }
    if (++seen > 2000) break;
  }
  return hash > plain;
}

/** Text of the new note: template (or a heading), type marker, defaults, given properties. */
export function newNote(model: ModelView, def: EntityType, name: string, marker: TypeMarker, props: Record<string, unknown>, titleNeeded: boolean): string {
  const schema = model.schema();
  const tpl = def.template?.replace(/\{\{\s*name\s*\}\}/g, name);
  const fields: Record<string, unknown> = {};
  if (titleNeeded) fields[schema.title_field] = name;
  if (marker.field) fields[marker.field.key] = marker.field.value;
  if (marker.tag) fields.tags = [(tagsWithHash(model) ? '#' : '') + marker.tag];
  for (const p of def.properties) if (p.default !== undefined) fields[p.name] = p.default;
  Object.assign(fields, props);
  if (tpl !== undefined && /^\uFEFF?---\r?\n/.test(tpl)) {
    // a template with its own frontmatter: keep it, add our fields on top
    let text = tpl;
    for (const [k, v] of Object.entries(fields)) text = setField(text, k, v);
    return text;
  }
  return newNoteText(fields, tpl ?? `# ${name}\n`);
}
