/**
 * A compiled, read-only view of a (loaded, cross-checked) Schema: the lookups
 * every other module needs, O(1) after compileSchema.
 *
 * Names: entity type names match case-insensitively (the index returns the
 * declared spelling); relationship names are UPPER_SNAKE_CASE and exact.
 * Built-ins: RELATED_TO (symmetric; the `related` field on every type and on
 * untyped notes) and LINKS_TO (body wikilinks; not a field).
 */
import { createHash } from 'node:crypto';
import { Calendar, type CalendarConfig } from '../timeline/calendar.js';
import { LINK_REL, RELATED_REL } from '../../shared/types.js';
import type { ParsedNote } from '../parse/types.js';
import type { EntityType, PropertyDef, RelationshipType, Schema } from './types.js';

export interface MappingInfo {
  field: string;
  /** canonical relationship name (never an inverse name) */
  relationship: string;
  /** the name as written in the mapping (canonical or inverse) */
  declaredAs: string;
  /** true when the mapping names an inverse: the edge is stored target -> note */
  reversed: boolean;
  /** allowed target types (declared spelling); null = any */
  targetTypes: string[] | null;
  cardinality: 'list' | 'scalar';
}

export interface RelationshipInfo {
  name: string;
  inverse: string | null;
  symmetric: boolean;
  hierarchy: boolean;
  rules: boolean;
  builtin: boolean;
  description?: string;
}

export interface AllowedRelationship {
  /** the frontmatter field the write-back sets */
  field: string;
  /** canonical relationship name */
  relationship: string;
  /** the name as the schema declares it on the mapping (what to show) */
  label: string;
  /** stored target -> note (the mapping names an inverse) */
  reversed: boolean;
  /** which end's note gets the field: 'from' (the drag source) or 'to' (the drop target) */
  on: 'from' | 'to';
}

export interface TypeResolution {
  /** the resolved, declared entity type; null = untyped */
  type: string | null;
  /** index of the type rule that matched */
  rule: number | null;
  /** a type value that names no declared type (e.g. `type: monstr`), with where it was written */
  unknown?: { value: string; field: string; line: number };
}

export interface SchemaEvents {
  type: string;
  session_field: string;
  date_field: string;
  participants_field: string;
  location_field: string;
}

export interface SchemaIndex {
  readonly schema: Schema;
  /** stable hash of the graph-relevant schema (not ui/rules): a change means rebuild */
  readonly fingerprint: string;
  readonly titleField: string;
  /** declared entity type names, in declaration order */
  readonly typeNames: string[];
  readonly events: SchemaEvents;
  /** the world's calendar (lorecraft.yaml `calendar:`): `date` properties and event dates are read against it */
  readonly calendar: Calendar | null;
  entityType(name: string): EntityType | undefined;
  properties(type: string | null): PropertyDef[];
  property(type: string | null, name: string): PropertyDef | undefined;
  /** relationship mapping of a field on a type (`related` on every type and on untyped notes); null = a plain property */
  mappingFor(type: string | null, field: string): MappingInfo | null;
  /** every relationship field of a type, `related` included */
  mappings(type: string | null): MappingInfo[];
  /** a relationship by canonical or inverse name */
  relationship(name: string): RelationshipInfo | undefined;
  /** canonical relationship types, built-ins included (RELATED_TO, LINKS_TO last) */
  relationshipTypes(): RelationshipInfo[];
  canonicalName(name: string): string | null;
  /** the other name of a pair: inverseOf('MEMBER_OF') = 'HAS_MEMBER' and back; a symmetric type is its own; else null */
  inverseOf(name: string): string | null;
  isSymmetric(name: string): boolean;
  allowedRelationships(fromType: string | null, toType: string | null): AllowedRelationship[];
  resolveType(note: ParsedNote): string | null;
  resolveTypeInfo(note: ParsedNote): TypeResolution;
  defaultsFor(type: string | null): Record<string, unknown>;
}

const RELATED_FIELD = 'related';

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stable(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function schemaFingerprint(schema: Schema): string {
  const { ui: _ui, rules: _rules, ...graph } = schema;
  return createHash('sha256').update(stable(graph)).digest('hex').slice(0, 32);
}

export function compileSchema(schema: Schema, calendar: CalendarConfig | null = null): SchemaIndex {
  const types = new Map<string, EntityType>();
  for (const t of schema.entity_types) if (!types.has(t.name.toLowerCase())) types.set(t.name.toLowerCase(), t);
  const typeOf = (name: string | null) => (name === null ? undefined : types.get(name.toLowerCase()));

  const rels = new Map<string, RelationshipInfo>();
  const canonical: RelationshipInfo[] = [];
  const addRel = (r: RelationshipType, builtin: boolean) => {
    if (rels.has(r.name)) return;
    const info: RelationshipInfo = {
      name: r.name, inverse: r.symmetric ? null : r.inverse ?? null, symmetric: r.symmetric,
      hierarchy: r.hierarchy, rules: r.rules, builtin,
      ...(r.description !== undefined ? { description: r.description } : {}),
    };
    canonical.push(info);
    rels.set(r.name, info);
    if (info.inverse && !rels.has(info.inverse)) rels.set(info.inverse, info);
  };
  for (const r of schema.relationship_types) addRel(r, false);
  addRel({ name: RELATED_REL, symmetric: true, hierarchy: false, rules: false, description: 'the built-in `related` field' }, true);
  addRel({ name: LINK_REL, symmetric: false, hierarchy: false, rules: false, description: 'a wikilink in a note body' }, true);

  const relatedMapping: MappingInfo = { field: RELATED_FIELD, relationship: RELATED_REL, declaredAs: RELATED_REL, reversed: false, targetTypes: null, cardinality: 'list' };
  const mappingsByType = new Map<string, Map<string, MappingInfo>>();
  for (const [key, t] of types) {
    const m = new Map<string, MappingInfo>();
    for (const fm of t.field_mappings) {
      const rel = rels.get(fm.relationship);
      if (!rel || rel.name === LINK_REL || m.has(fm.field)) continue;
      const targets = fm.target_type === undefined ? null : (Array.isArray(fm.target_type) ? fm.target_type : [fm.target_type])
        .map((n) => types.get(n.toLowerCase())?.name).filter((n): n is string => n !== undefined);
      m.set(fm.field, {
        field: fm.field, relationship: rel.name, declaredAs: fm.relationship,
        reversed: fm.relationship !== rel.name, targetTypes: targets && targets.length ? targets : null,
        cardinality: fm.cardinality ?? 'list',
      });
    }
    if (!m.has(RELATED_FIELD)) m.set(RELATED_FIELD, relatedMapping);
    mappingsByType.set(key, m);
  }
  const untypedMappings = new Map([[RELATED_FIELD, relatedMapping]]);
  const mapsOf = (type: string | null) => (type === null ? untypedMappings : mappingsByType.get(type.toLowerCase()) ?? untypedMappings);

  const accepts = (m: MappingInfo, t: string | null) => m.targetTypes === null || (t !== null && m.targetTypes.some((x) => x.toLowerCase() === t.toLowerCase()));

  const events: SchemaEvents = {
    type: schema.events.type ?? 'event',
    session_field: schema.events.session_field ?? 'session',
    date_field: schema.events.date_field ?? 'date_in_world',
    participants_field: schema.events.participants_field ?? 'participants',
    location_field: schema.events.location_field ?? 'location',
  };

  const rules = schema.type_rules;
  // each rule's constant parts, made once (resolveTypeInfo runs for every note of an open)
  type CompiledRule =
    | { kind: 'field'; field: string; map: Map<string, string> | null }
    | { kind: 'tag'; tag: string; nested: boolean; prefix: string; type: EntityType | undefined }
    | { kind: 'folder'; folder: string; type: EntityType | undefined };
  const compiled = rules.map((r): CompiledRule => {
    if ('field' in r) {
      let map: Map<string, string> | null = null;
      if (r.map) {
        map = new Map();
        // the first key of the map that matches, as Object.entries(map).find gave it
        for (const [k, v] of Object.entries(r.map)) if (!map.has(k.toLowerCase())) map.set(k.toLowerCase(), v);
      }
      return { kind: 'field', field: r.field, map };
    }
    if ('tag' in r) {
      const tag = r.tag.replace(/^#/, '').toLowerCase();
      return { kind: 'tag', tag, nested: r.nested === true, prefix: tag + '/', type: types.get(r.type.toLowerCase()) };
    }
    const folder = r.folder.replace(/^\.?\/+/, '').replace(/\/+$/, '').toLowerCase();
    return { kind: 'folder', folder: folder === '' || folder === '.' ? '' : folder + '/', type: types.get(r.type.toLowerCase()) };
  });
  const resolveTypeInfo = (note: ParsedNote): TypeResolution => {
    let unknown: TypeResolution['unknown'];
    let lowerTags: string[] | null = null;
    let lowerPath: string | null = null;
    for (let i = 0; i < compiled.length; i++) {
      const r = compiled[i]!;
      if (r.kind === 'field') {
        let v = note.frontmatter[r.field];
        if (Array.isArray(v)) v = v[0];
        if (typeof v !== 'string') continue;
        let raw = v.trim();
        if (!raw) continue;
        if (raw.charCodeAt(0) === 35) raw = raw.slice(1); // '#'
        const lower = raw.toLowerCase();
        const mapped = r.map?.get(lower);
        const t = types.get(mapped === undefined ? lower : mapped.toLowerCase());
        if (t) return { type: t.name, rule: i };
        unknown ??= { value: raw, field: r.field, line: note.fieldLines[r.field] ?? 1 };
      } else if (r.kind === 'tag') {
        if (!r.type) continue;
        lowerTags ??= note.tags.map((t) => t.toLowerCase());
        const want = r.tag;
        for (let j = 0; j < lowerTags.length; j++) {
          const t = lowerTags[j]!;
          if (t === want || (r.nested && t.startsWith(r.prefix))) return { type: r.type.name, rule: i };
        }
      } else {
        lowerPath ??= note.path.toLowerCase();
        if (r.type && (r.folder === '' || lowerPath.startsWith(r.folder))) return { type: r.type.name, rule: i };
      }
    }
    return unknown ? { type: null, rule: null, unknown } : { type: null, rule: null };
  };

  return {
    schema,
    fingerprint: schemaFingerprint(schema),
    calendar: calendar ? new Calendar(calendar) : null,
    titleField: schema.title_field,
    typeNames: [...types.values()].map((t) => t.name),
    events,
    entityType: (name) => types.get(name.toLowerCase()),
    properties: (type) => typeOf(type)?.properties ?? [],
    property: (type, name) => typeOf(type)?.properties.find((p) => p.name === name),
    mappingFor: (type, field) => mapsOf(type).get(field) ?? null,
    mappings: (type) => [...mapsOf(type).values()],
    relationship: (name) => rels.get(name),
    relationshipTypes: () => canonical.slice(),
    canonicalName: (name) => rels.get(name)?.name ?? null,
    inverseOf: (name) => {
      const r = rels.get(name);
      if (!r) return null;
      if (r.symmetric) return r.name;
      if (!r.inverse) return null;
      return name === r.name ? r.inverse : r.name;
    },
    isSymmetric: (name) => rels.get(name)?.symmetric ?? false,
    allowedRelationships: (fromType, toType) => {
      const out: AllowedRelationship[] = [];
      for (const m of mapsOf(fromType).values()) {
        if (m.field === RELATED_FIELD || !accepts(m, toType)) continue;
        out.push({ field: m.field, relationship: m.relationship, label: m.declaredAs, reversed: m.reversed, on: 'from' });
      }
      // a field on the target's type whose relationship, read from the source, is meaningful:
      // written on the target, it points back at the source
      for (const m of mapsOf(toType).values()) {
        if (m.field === RELATED_FIELD || !accepts(m, fromType)) continue;
        out.push({ field: m.field, relationship: m.relationship, label: m.declaredAs, reversed: m.reversed, on: 'to' });
      }
      out.push({ field: RELATED_FIELD, relationship: RELATED_REL, label: RELATED_REL, reversed: false, on: 'from' });
      return out;
    },
    resolveType: (note) => resolveTypeInfo(note).type,
    resolveTypeInfo,
    defaultsFor: (type) => {
      const d: Record<string, unknown> = {};
      for (const p of typeOf(type)?.properties ?? []) if (p.default !== undefined) d[p.name] = structuredClone(p.default);
      return d;
    },
  };
}
