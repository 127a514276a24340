/**
 * `lorecraft init --infer`: proposes a schema from an existing vault.
 *
 * - Types from frequent tags (nested tags become one type per leaf, the parent
 *   tag a catch-all with `nested: true`), then from top-level folders whose notes
 *   no tag type covers. Status-like tags (TODO, Draft, Status/...) are skipped.
 * - Relationships from frontmatter keys whose non-empty values are mostly
 *   wikilinks; `parent*` keys become PART_OF (hierarchy); a few common keys get
 *   conventional names (location -> LOCATED_IN, allies -> ALLIED_WITH...).
 *   Target types: the types of the notes the links resolve to.
 * - type_rules for the tags and folders used, most specific first.
 * Read-only: it never writes; the caller decides what to do with the text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { normaliseName } from '../../shared/names.js';
import { parseNote, fieldRefs } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import { compileSchema } from './schema-index.js';
import { SchemaZ, type EntityType, type RelationshipType, type Schema, type TypeRule } from './types.js';

const SKIP_DIRS = new Set(['.git', '.obsidian', '.lorecraft', '.trash', 'node_modules']);
/** status markers, and numbered series (#Group1, #Session12): not types */
const STATUS_TAG = /^(todo|done|wip|draft|stub|stubbed|canon|blank|review|fixme|status(\/.*)?|archived?)$/i;
const RESERVED = new Set(['title', 'type', 'tags', 'aliases', 'alias', 'related']);

const KNOWN: Record<string, RelationshipType> = {
  location: rel('LOCATED_IN', 'LOCATION_OF'), locations: rel('LOCATED_IN', 'LOCATION_OF'),
  organization: rel('MEMBER_OF', 'HAS_MEMBER'), organizations: rel('MEMBER_OF', 'HAS_MEMBER'),
  faction: rel('MEMBER_OF', 'HAS_MEMBER'), factions: rel('MEMBER_OF', 'HAS_MEMBER'),
  allies: sym('ALLIED_WITH'), enemies: sym('HOSTILE_TO'), rivals: sym('RIVAL_OF'),
  owner: rel('OWNS', 'OWNED_BY'), members: rel('MEMBER_OF', 'HAS_MEMBER'),
  participants: rel('INVOLVES', 'INVOLVED_IN'),
};
/** for these keys the mapping names the inverse: the edge is stored target -> note */
const INVERSE_KEYS = new Set(['owner', 'members']);

function rel(name: string, inverse?: string): RelationshipType {
  return { name, ...(inverse ? { inverse } : {}), symmetric: false, hierarchy: false, rules: false };
}
function sym(name: string): RelationshipType {
  return { name, symmetric: true, hierarchy: false, rules: false };
}

export interface InferResult {
  schema: Schema;
  /** schema.yaml text, commented */
  text: string;
  summary: { notes: number; types: Record<string, number>; untyped: number; relationships: string[] };
}

function typeNameOf(label: string): string {
  let s = label.replace(/^[\d\s._-]+/, '').trim();
  if (/ies$/i.test(s)) s = s.slice(0, -3) + 'y';
  else if (/[^s]s$/i.test(s)) s = s.slice(0, -1);
  s = s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  if (!/^[a-z]/.test(s)) s = 't_' + s;
  return s || 'note';
}

function relNameOf(key: string): string {
  const s = key.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[A-Z]/.test(s) ? s : `REL_${s}`;
}

function listNotes(root: string, dir = '', out: ParsedNote[] = []): ParsedNote[] {
  let entries;
  try { entries = readdirSync(join(root, dir), { withFileTypes: true }); } catch { return out; }
  for (const e of entries) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) { if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) listNotes(root, rel, out); }
    else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) {
      try { out.push(parseNote(rel, readFileSync(join(root, rel)))); } catch { /* unreadable: skipped */ }
    }
  }
  return out;
}

export function inferSchema(vaultDir: string): InferResult {
  const notes = listNotes(vaultDir);
  const minCount = Math.max(3, Math.ceil(notes.length * 0.005));
  const types = new Map<string, EntityType>();
  const rules: TypeRule[] = [{ field: 'type' }];
  const addType = (name: string, description: string) => {
    if (!types.has(name)) types.set(name, { name, description, properties: [], field_mappings: [] });
    return name;
  };

  // 1. tags
  const tagCount = new Map<string, { tag: string; n: number }>();
  for (const n of notes) for (const t of n.tags) {
    const k = t.toLowerCase();
    const c = tagCount.get(k) ?? { tag: t, n: 0 };
    c.n++;
    tagCount.set(k, c);
  }
  const typeTags = [...tagCount.values()].filter((c) => c.n >= minCount && !STATUS_TAG.test(c.tag) && !/\d$/.test(c.tag) && !STATUS_TAG.test(c.tag.split('/')[0]!))
    // most specific first: deeper tags, then rarer ones (#NPC before #Character, #Religion before #Organization)
    .sort((a, b) => b.tag.split('/').length - a.tag.split('/').length || a.n - b.n).slice(0, 40);
  const used = new Set<string>();
  for (const c of typeTags) {
    let name = typeNameOf(c.tag.split('/').pop()!);
    if (used.has(name)) name = typeNameOf(c.tag.replace(/\//g, '_'));
    if (used.has(name)) continue;
    used.add(name);
    addType(name, `notes tagged #${c.tag} (${c.n})`);
    const hasChildren = typeTags.some((o) => o.tag.toLowerCase().startsWith(c.tag.toLowerCase() + '/'));
    rules.push(hasChildren ? { tag: c.tag, type: name, nested: true } : { tag: c.tag, type: name });
  }

  // 2. folders not covered by tag types: the first level with more than one folder
  const draft = (): Schema => SchemaZ.parse({ entity_types: [...types.values()], type_rules: rules });
  let ix = compileSchema(draft());
  let prefix = '';
  for (;;) {
    const under = notes.filter((n) => n.path.startsWith(prefix));
    const folders = new Set(under.map((n) => n.path.slice(prefix.length).split('/')).filter((s) => s.length > 1).map((s) => s[0]!));
    if (folders.size === 1) { prefix += [...folders][0]! + '/'; continue; }
    for (const f of folders) {
      const inF = under.filter((n) => n.path.startsWith(prefix + f + '/'));
      const covered = inF.filter((n) => ix.resolveType(n) !== null).length;
      if (inF.length < minCount || covered / inF.length >= 0.6) continue;
      let name = typeNameOf(f);
      if (types.has(name)) name = `${name}_note`;
      if (types.has(name)) continue;
      addType(name, `notes in ${prefix}${f}/ (${inF.length})`);
      rules.push({ folder: prefix + f, type: name });
    }
    break;
  }
  ix = compileSchema(draft());

  // 3. relationships from link-valued keys
  const byName = new Map<string, ParsedNote>();
  for (const n of notes) for (const k of [n.title, n.basename, ...n.aliases]) if (!byName.has(normaliseName(k))) byName.set(normaliseName(k), n);
  const typeOf = new Map(notes.map((n) => [n, ix.resolveType(n)]));
  const keyStats = new Map<string, { present: number; linked: number; fromTypes: Set<string>; targets: Map<string, number> }>();
  for (const n of notes) {
    for (const key of Object.keys(n.frontmatter)) {
      if (RESERVED.has(key)) continue;
      const refs = fieldRefs(n, key);
      if (refs.length === 0) continue;
      const st = keyStats.get(key) ?? { present: 0, linked: 0, fromTypes: new Set<string>(), targets: new Map<string, number>() };
      st.present++;
      const links = refs.filter((r) => r.wikilink);
      if (links.length > 0) {
        st.linked++;
        const t = typeOf.get(n);
        if (t) st.fromTypes.add(t);
        for (const r of links) {
          const target = byName.get(normaliseName(r.name));
          const tt = target ? typeOf.get(target) : null;
          if (tt) st.targets.set(tt, (st.targets.get(tt) ?? 0) + 1);
        }
      }
      keyStats.set(key, st);
    }
  }
  const relTypes = new Map<string, RelationshipType>();
  for (const [key, st] of [...keyStats].sort((a, b) => b[1].linked - a[1].linked)) {
    if (st.linked < 2 || st.linked / st.present < 0.5 || st.fromTypes.size === 0) continue;
    let r: RelationshipType;
    let mapped: string;
    if (/^parent/i.test(key)) { r = { ...rel('PART_OF', 'CONTAINS'), hierarchy: true }; mapped = 'PART_OF'; }
    else if (KNOWN[key.toLowerCase()]) { r = KNOWN[key.toLowerCase()]!; mapped = INVERSE_KEYS.has(key.toLowerCase()) ? r.inverse ?? r.name : r.name; }
    else { r = rel(relNameOf(key)); mapped = r.name; }
    if (!relTypes.has(r.name)) relTypes.set(r.name, r);
    const total = [...st.targets.values()].reduce((a, b) => a + b, 0);
    const targets = [...st.targets].filter(([, c]) => c >= total * 0.1).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([t]) => t);
    for (const t of st.fromTypes) {
      types.get(t)!.field_mappings.push({ field: key, relationship: mapped, ...(targets.length ? { target_type: targets } : {}) });
    }
  }

  const schema = SchemaZ.parse({
    entity_types: [...types.values()],
    relationship_types: [...relTypes.values()],
    type_rules: rules,
  });
  const fin = compileSchema(schema);
  const counts: Record<string, number> = {};
  let untyped = 0;
  for (const n of notes) { const t = fin.resolveType(n); if (t) counts[t] = (counts[t] ?? 0) + 1; else untyped++; }
  const header = [
    '# Lorecraft schema proposed by `lorecraft init --infer` from this vault:',
    `# ${notes.length} notes, ${types.size} types (${untyped} notes left untyped), ${relTypes.size} relationship types.`,
    '# Review it: rename types and relationships, add properties. Reference: docs/schema.md',
    '',
  ].join('\n');
  const body = stringify({
    version: 1, title_field: 'title',
    entity_types: schema.entity_types.map((t) => ({ name: t.name, description: t.description, ...(t.field_mappings.length ? { field_mappings: t.field_mappings } : {}) })),
    relationship_types: schema.relationship_types.map((r) => ({ name: r.name, ...(r.inverse ? { inverse: r.inverse } : {}), ...(r.symmetric ? { symmetric: true } : {}), ...(r.hierarchy ? { hierarchy: true } : {}) })),
    type_rules: schema.type_rules,
  }, { lineWidth: 0, flowCollectionPadding: false });
  return { schema, text: header + body, summary: { notes: notes.length, types: counts, untyped, relationships: [...relTypes.keys()] } };
}
