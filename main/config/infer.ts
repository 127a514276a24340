/**
 * Schema inference (docs/schema.md, "Inferring a schema"): a *proposal* of types
 * from a vault's notes, which the GM edits (rename, merge, drop, folder vs tag
 * rule), then a schema built from the proposal and those choices. Pure: notes in,
 * data out; reading the vault and writing files is the caller's (core/schema-setup).
 *
 * - Candidates: values of a `type:` key; frequent tags (status-like and numbered
 *   tags skipped); folders that directly hold notes. A tag and a folder giving the
 *   same singular name are one proposed type with both rules on offer.
 * - Names are singular (`pluralize`), lower case; acronyms stay (FS, NPCs -> NPC).
 * - Per final type, properties from the frontmatter its notes really have:
 *   boolean, integer, number, date, enum (few distinct values that recur), list,
 *   string; link-valued keys become relationships with their observed target types.
 * - Every count (per type, per rule, the summary) comes from resolving the notes
 *   against the built schema, so they agree.
 */
import pluralize from 'pluralize';
import { stringify } from 'yaml';
import { normaliseName } from '../../shared/names.js';
import { fieldRefs } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import { compileSchema } from './schema-index.js';
import {
  SchemaZ, type FieldMapping, type PropertyDef, type RelationshipType, type Schema, type TypeRule,
} from './types.js';

/** status markers and numbered series (#Group1, #Session12) are not types */
const STATUS_TAG = /^(todo|done|wip|draft|stub|stubbed|canon|blank|review|fixme|status(\/.*)?|archived?)$/i;
/** keys with built-in meaning, or Obsidian's display settings: never properties */
const RESERVED = new Set(['title', 'type', 'tags', 'tag', 'aliases', 'alias', 'related', 'cssclass', 'cssclasses', 'publish', 'permalink']);
const DATE_RE = /^-?\d{1,6}-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?$/;
const MAX_EXAMPLES = 5;

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

export type RuleKind = 'folder' | 'tag' | 'both';

/** A type the vault suggests. `id` is stable across calls for the same vault. */
export interface ProposedType {
  id: string;
  name: string;
  /** the folder rule on offer (vault-relative), the tag rule on offer (without #), the `type:` value */
  folder?: string;
  tag?: string;
  field?: string;
  /** the rule(s) used by default; ignored for `field` types (the `type:` key always applies) */
  rule: RuleKind;
  keep: boolean;
  /** how many notes each rule on offer would type on its own */
  ruleCounts: { folder?: number; tag?: number; field?: number };
}

/** The GM's decision about one proposed type: merge = give two types the same name. */
export interface TypeChoice { id: string; name: string; rule?: RuleKind; keep: boolean }

export interface InferredType {
  name: string;
  /** notes this type gets under the built schema */
  count: number;
  examples: string[];
  /** proposed types merged into this one */
  from: string[];
  properties: Array<PropertyDef & { count: number }>;
  relations: Array<FieldMapping & { count: number }>;
}

export interface InferSummary { notes: number; types: Record<string, number>; untyped: number; relationships: string[] }

export interface BuiltSchema {
  schema: Schema;
  /** schema.yaml text, commented */
  text: string;
  types: InferredType[];
  summary: InferSummary;
}

export interface Proposal extends BuiltSchema {
  candidates: ProposedType[];
}

/** A folder or tag label -> a type name: singular, lower case, acronyms kept. */
export function typeNameOf(label: string): string {
  const words = label.replace(/^[\d\s._-]+/, '').trim().split(/[^A-Za-z0-9]+/).filter(Boolean);
  if (!words.length) return 'note';
  const last = words.length - 1;
  const out = words.map((w, i) => {
    const acronym = /^[A-Z0-9]+s?$/.test(w) && /[A-Z]/.test(w) && w.length > 1 && !/^[A-Z][a-z]/.test(w);
    if (acronym) return i === last ? w.replace(/s$/, '') : w;
    const lw = w.toLowerCase();
    return i === last ? pluralize.singular(lw) : lw;
  });
  const s = out.join('_');
  return /^[A-Za-z]/.test(s) ? s : `t_${s}`;
}

function relNameOf(key: string): string {
  const s = key.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[A-Z]/.test(s) ? s : `REL_${s}`;
}

const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const depth = (s: string) => s.split('/').length;

/** Proposes types from `type:` values, tags and folders, and builds the default schema from them. */
export function proposeSchema(notes: ParsedNote[], titleField = 'title'): Proposal {
  const minCount = Math.max(2, Math.ceil(notes.length * 0.005));
  const byName = new Map<string, ProposedType>();
  const add = (name: string, part: Partial<ProposedType>, n: number) => {
    const key = name.toLowerCase();
    const c = byName.get(key);
    if (c) {
      // same name from a folder and a tag: one type, both rules on offer
      if (part.folder && !c.folder) { c.folder = part.folder; c.ruleCounts.folder = n; if (c.tag) c.rule = 'both'; }
      else if (part.tag && !c.tag) { c.tag = part.tag; c.ruleCounts.tag = n; }
      return;
    }
    const kind = part.field ? 'field' : part.folder ? 'folder' : 'tag';
    byName.set(key, {
      id: `${kind}:${part.field ?? part.folder ?? part.tag}`, name, rule: part.tag && !part.folder ? 'tag' : 'folder', keep: true,
      ...part, ruleCounts: { [kind]: n },
    });
  };

  // 1. `type:` values
  const typeValues = new Map<string, { v: string; n: number }>();
  for (const n of notes) {
    const v = Array.isArray(n.frontmatter.type) ? n.frontmatter.type[0] : n.frontmatter.type;
    if (typeof v !== 'string' || !v.trim()) continue;
    const raw = v.trim().replace(/^#/, '');
    const c = typeValues.get(raw.toLowerCase()) ?? { v: raw, n: 0 };
    c.n++;
    typeValues.set(raw.toLowerCase(), c);
  }
  for (const { v, n } of typeValues.values()) add(typeNameOf(v), { field: v }, n);

  // 2. tags: most specific first (deeper, then rarer: #NPC before #Character)
  const tagCount = new Map<string, { tag: string; n: number }>();
  for (const n of notes) for (const t of n.tags) {
    const c = tagCount.get(t.toLowerCase()) ?? { tag: t, n: 0 };
    c.n++;
    tagCount.set(t.toLowerCase(), c);
  }
  const tags = [...tagCount.values()]
    .filter((c) => c.n >= minCount && !STATUS_TAG.test(c.tag) && !/\d$/.test(c.tag) && !STATUS_TAG.test(c.tag.split('/')[0]!))
    .sort((a, b) => depth(b.tag) - depth(a.tag) || a.n - b.n).slice(0, 40);
  for (const c of tags) add(typeNameOf(c.tag.split('/').pop()!), { tag: c.tag }, c.n);

  // 3. folders that directly hold notes (a rule covers its subfolders; deeper rules win)
  const direct = new Map<string, number>();
  for (const n of notes) { const f = folderOf(n.path); if (f) direct.set(f, (direct.get(f) ?? 0) + 1); }
  const folders = [...direct].filter(([, c]) => c >= minCount).sort((a, b) => depth(b[0]) - depth(a[0]) || a[0].localeCompare(b[0])).slice(0, 40);
  for (const [f] of folders) {
    const n = notes.filter((x) => x.path.startsWith(f + '/')).length;
    add(typeNameOf(f.split('/').pop()!), { folder: f }, n);
  }

  const candidates = [...byName.values()];
  // a folder type whose notes are mostly typed by tag types already is offered but off by default
  const tagOnly = build(notes, candidates.filter((c) => !c.folder || c.tag), [], titleField);
  const ix = compileSchema(tagOnly.schema);
  for (const c of candidates) {
    if (!c.folder || c.tag || c.field) continue;
    const inF = notes.filter((n) => n.path.startsWith(c.folder + '/'));
    const covered = inF.filter((n) => ix.resolveType(n) !== null).length;
    if (inF.length && covered / inF.length >= 0.6) c.keep = false;
  }
  return { ...build(notes, candidates, [], titleField), candidates };
}

/** The schema for these candidates with the GM's choices applied (no choice: the candidate's defaults). */
export function buildSchema(notes: ParsedNote[], candidates: ProposedType[], choices: TypeChoice[], titleField = 'title'): BuiltSchema {
  return build(notes, candidates, choices, titleField);
}

function build(notes: ParsedNote[], candidates: ProposedType[], choices: TypeChoice[], titleField: string): BuiltSchema {
  const choiceOf = new Map(choices.map((c) => [c.id, c]));
  const kept = candidates.map((c) => {
    const ch = choiceOf.get(c.id);
    return { c, name: (ch?.name ?? c.name).trim(), rule: ch?.rule ?? c.rule, keep: ch?.keep ?? c.keep };
  }).filter((k) => k.keep && /^[A-Za-z][A-Za-z0-9_-]*$/.test(k.name));

  // one entity type per final name (merging), rules most specific first
  const types = new Map<string, { name: string; from: string[]; folder?: string }>();
  for (const k of kept) {
    const t = types.get(k.name.toLowerCase()) ?? { name: k.name, from: [] };
    t.from.push(k.c.id);
    if (k.c.folder && k.rule !== 'tag' && !t.folder) t.folder = k.c.folder;
    types.set(k.name.toLowerCase(), t);
  }
  const map: Record<string, string> = {};
  for (const k of kept) if (k.c.field && k.c.field !== k.name) map[k.c.field] = k.name;
  const rules: TypeRule[] = [Object.keys(map).length ? { field: 'type', map } : { field: 'type' }];
  const tagRules = kept.filter((k) => k.c.tag && !k.c.field && (k.rule !== 'folder' || !k.c.folder))
    .sort((a, b) => depth(b.c.tag!) - depth(a.c.tag!) || (a.c.ruleCounts.tag ?? 0) - (b.c.ruleCounts.tag ?? 0));
  for (const k of tagRules) {
    const parent = tagRules.some((o) => o.c.tag!.toLowerCase().startsWith(k.c.tag!.toLowerCase() + '/'));
    rules.push(parent ? { tag: k.c.tag!, type: k.name, nested: true } : { tag: k.c.tag!, type: k.name });
  }
  const folderRules = kept.filter((k) => k.c.folder && !k.c.field && (k.rule !== 'tag' || !k.c.tag))
    .sort((a, b) => depth(b.c.folder!) - depth(a.c.folder!) || a.c.folder!.localeCompare(b.c.folder!));
  for (const k of folderRules) rules.push({ folder: k.c.folder!, type: k.name });

  const draft = SchemaZ.parse({
    title_field: titleField,
    entity_types: [...types.values()].map((t) => ({ name: t.name, ...(t.folder ? { folder: t.folder } : {}) })),
    type_rules: rules,
  });
  const ix = compileSchema(draft);
  const typeOf = new Map<ParsedNote, string | null>(notes.map((n) => [n, ix.resolveType(n)]));
  const members = new Map<string, ParsedNote[]>();
  for (const [n, t] of typeOf) if (t) { const l = members.get(t) ?? []; l.push(n); members.set(t, l); }

  // relationships and properties per final type
  const resolveName = new Map<string, ParsedNote>();
  for (const n of notes) for (const k of [n.title, n.basename, ...n.aliases]) if (!resolveName.has(normaliseName(k))) resolveName.set(normaliseName(k), n);
  const relTypes = new Map<string, RelationshipType>();
  const inferred: InferredType[] = [];
  for (const t of types.values()) {
    const ns = (members.get(t.name) ?? []).slice().sort((a, b) => a.path.localeCompare(b.path));
    const { properties, relations } = inferKeys(ns, titleField, (name) => {
      const target = resolveName.get(normaliseName(name));
      return target ? typeOf.get(target) ?? null : null;
    }, relTypes);
    inferred.push({ name: t.name, count: ns.length, examples: ns.slice(0, MAX_EXAMPLES).map((n) => n.title), from: t.from, properties, relations });
  }

  const describe = (t: InferredType) => {
    const srcs = t.from.map((id) => candidates.find((c) => c.id === id)!).map((c) =>
      c.field ? `type: ${c.field}` : [c.folder && `${c.folder}/`, c.tag && `#${c.tag}`].filter(Boolean).join(' or '));
    return `notes from ${srcs.join(', ')} (${t.count})`;
  };
  const schema = SchemaZ.parse({
    title_field: titleField,
    entity_types: inferred.map((t) => ({
      name: t.name, description: describe(t), ...(types.get(t.name.toLowerCase())!.folder ? { folder: types.get(t.name.toLowerCase())!.folder } : {}),
      properties: t.properties.map(({ count: _c, ...p }) => p),
      field_mappings: t.relations.map(({ count: _c, ...m }) => m),
    })),
    relationship_types: [...relTypes.values()],
    type_rules: rules,
  });
  const counts: Record<string, number> = {};
  let untyped = 0;
  for (const t of typeOf.values()) if (t) counts[t] = (counts[t] ?? 0) + 1; else untyped++;
  const summary: InferSummary = { notes: notes.length, types: counts, untyped, relationships: [...relTypes.keys()] };
  return { schema, text: schemaText(schema, summary), types: inferred, summary };
}

type Kind = 'boolean' | 'integer' | 'number' | 'date' | 'string' | 'list' | 'other';
function kindOf(v: unknown): Kind {
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : Number.isFinite(v) ? 'number' : 'other';
  if (typeof v === 'string') return DATE_RE.test(v.trim()) ? 'date' : 'string';
  return 'other';
}
/** one kind for a set of scalar kinds, or null when they do not agree */
function unify(kinds: Set<Kind>): Kind | null {
  if (kinds.size === 1) return [...kinds][0]!;
  if (kinds.size === 2 && kinds.has('integer') && kinds.has('number')) return 'number';
  if (kinds.size === 2 && kinds.has('date') && kinds.has('string')) return 'string';
  return null;
}

function inferKeys(notes: ParsedNote[], titleField: string, targetType: (name: string) => string | null, relTypes: Map<string, RelationshipType>) {
  const keys = new Map<string, ParsedNote[]>();
  for (const n of notes) for (const [k, v] of Object.entries(n.frontmatter)) {
    if (RESERVED.has(k.toLowerCase()) || k === titleField || v === null || v === undefined || v === '') continue;
    const l = keys.get(k) ?? [];
    l.push(n);
    keys.set(k, l);
  }
  const properties: InferredType['properties'] = [];
  const relations: InferredType['relations'] = [];
  for (const [key, ns] of [...keys].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
    const linked = ns.filter((n) => fieldRefs(n, key).some((r) => r.wikilink));
    if (linked.length > 0 && linked.length * 2 >= ns.length) {
      const targets = new Map<string, number>();
      for (const n of linked) for (const r of fieldRefs(n, key)) {
        const tt = r.wikilink ? targetType(r.name) : null;
        if (tt) targets.set(tt, (targets.get(tt) ?? 0) + 1);
      }
      let r: RelationshipType;
      let mapped: string;
      if (/^parent/i.test(key)) { r = { ...rel('PART_OF', 'CONTAINS'), hierarchy: true }; mapped = 'PART_OF'; }
      else if (KNOWN[key.toLowerCase()]) { r = KNOWN[key.toLowerCase()]!; mapped = INVERSE_KEYS.has(key.toLowerCase()) ? r.inverse ?? r.name : r.name; }
      else { r = rel(relNameOf(key)); mapped = r.name; }
      if (!relTypes.has(r.name)) relTypes.set(r.name, r);
      const total = [...targets.values()].reduce((a, b) => a + b, 0);
      const tts = [...targets].filter(([, c]) => c >= total * 0.1).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 6).map(([t]) => t);
      const scalar = ns.every((n) => !Array.isArray(n.frontmatter[key]));
      relations.push({
        field: key, relationship: mapped, ...(tts.length ? { target_type: tts.length === 1 ? tts[0]! : tts } : {}),
        ...(scalar ? { cardinality: 'scalar' as const } : {}), count: ns.length,
      });
      continue;
    }
    const values = ns.map((n) => n.frontmatter[key]);
    const kinds = new Set(values.map(kindOf));
    const k = unify(kinds);
    if (!k || k === 'other') continue; // mixed or nested: left undeclared (still shown and editable)
    if (k === 'list') {
      const items = unify(new Set(values.flatMap((v) => (v as unknown[]).map(kindOf))));
      const itemKind = items && items !== 'list' && items !== 'other' ? items : null;
      if (!itemKind && (values as unknown[][]).some((v) => v.length)) continue;
      properties.push({ name: key, type: 'list', ...(itemKind ? { items: itemKind } : {}), required: false, count: ns.length });
      continue;
    }
    if (k === 'string') {
      const distinct = [...new Set(values.map((v) => String(v).trim()))];
      // enum: few values, each used more than once on average
      if (ns.length >= 4 && distinct.length <= Math.min(8, ns.length / 2)) {
        properties.push({ name: key, type: 'enum', values: distinct.sort(), required: false, count: ns.length });
        continue;
      }
    }
    properties.push({ name: key, type: k, required: false, count: ns.length });
  }
  return { properties, relations };
}

function schemaText(schema: Schema, summary: InferSummary): string {
  const header = [
    '# Lorecraft schema inferred from this vault (the app\'s schema setup, or `lorecraft init --infer`):',
    `# ${summary.notes} notes, ${schema.entity_types.length} types (${summary.untyped} notes left untyped), ${schema.relationship_types.length} relationship types.`,
    '# Review it: rename types and relationships, adjust properties. Reference: docs/schema.md',
    '',
  ].join('\n');
  const body = stringify({
    version: 1, title_field: schema.title_field,
    entity_types: schema.entity_types.map((t) => ({
      name: t.name, description: t.description, ...(t.folder ? { folder: t.folder } : {}),
      ...(t.properties.length ? { properties: t.properties.map((p) => ({ name: p.name, type: p.type, ...(p.values ? { values: p.values } : {}), ...(p.items ? { items: p.items } : {}) })) } : {}),
      ...(t.field_mappings.length ? { field_mappings: t.field_mappings } : {}),
    })),
    relationship_types: schema.relationship_types.map((r) => ({ name: r.name, ...(r.inverse ? { inverse: r.inverse } : {}), ...(r.symmetric ? { symmetric: true } : {}), ...(r.hierarchy ? { hierarchy: true } : {}) })),
    type_rules: schema.type_rules,
  }, { lineWidth: 0, flowCollectionPadding: false });
  return header + body;
}
