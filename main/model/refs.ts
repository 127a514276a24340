/**
 * A note's outgoing references, computed once per note version: field-mapped
 * relationships, `related`, wikilinks in unmapped frontmatter fields and body
 * wikilinks. Also the entity properties (frontmatter minus reserved keys and
 * mapped fields). Pure functions of (note, type, schema).
 */
import { LINK_REL, RELATED_REL, type PropertyValue } from '../../shared/types.js';
import { RESERVED_FIELDS } from '../config/types.js';
import { frontmatterOnce } from '../parse/frontmatter-once.js';
import { forEachFieldRef } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import { normKey, pathKey } from './names.js';
import type { SchemaView } from './schema-view.js';

/** One reference with its keys, made in one go (every Ref has the same shape up to its optional keys). */
function ref(name: string, target: string, field: string | null, line: number, rel: string, reversed: boolean, props?: Record<string, unknown>): Ref {
  const out: Ref = { name, target, field, line, rel, reversed, key: normKey(name) };
  if (props) out.props = props;
  if (target.includes('/')) { out.pathKey = pathKey(target); out.targetKey = normKey(target); }
  return out;
}

export interface Ref {
  /** name to match against names, file names, aliases */
  name: string;
  /** as written (may be a vault-relative path) */
  target: string;
  field: string | null;
  line: number;
  rel: string;
  reversed: boolean;
  /** a map item's relationship properties */
  props?: Record<string, unknown>;
  /** normalised name; '' = nothing to resolve */
  key: string;
  /** for a path-like target: pathKey(target) and normKey(target) */
  pathKey?: string;
  targetKey?: string;
}

const RESERVED = new Set<string>([...RESERVED_FIELDS, 'alias']);

export function isReservedField(field: string, titleField: string): boolean {
  return RESERVED.has(field) || field === titleField;
}

export function noteRefs(note: ParsedNote, type: string | null, sv: SchemaView): Ref[] {
  const out = headRefs(note, type, sv);
  for (const l of note.bodyLinks) out.push(bodyRef(l));
  return out;
}

/** A note of more body links than this gives its references to a bulk load in batches of this many (refBatches). */
export const REF_BATCH = 4096;

/**
 * noteRefs(note, type, sv), in the same order, as one array for a note of at most REF_BATCH body links, else in
 * batches of at most REF_BATCH (made when the previous one has been read): a caller that lets each batch go once
 * read leaves short-lived objects only (a 9 MB note's 102k body links made 102k references at once, promoted to
 * the old generation while the array grew: huge15g).
 */
export function refBatches(note: ParsedNote, type: string | null, sv: SchemaView): Iterable<Ref[]> {
  return note.bodyLinks.length <= REF_BATCH ? [noteRefs(note, type, sv)] : bodyBatches(note, type, sv);
}

function* bodyBatches(note: ParsedNote, type: string | null, sv: SchemaView): Generator<Ref[]> {
  yield headRefs(note, type, sv);
  const links = note.bodyLinks;
  for (let i = 0; i < links.length; i += REF_BATCH) {
    const end = Math.min(links.length, i + REF_BATCH);
    const out: Ref[] = [];
    for (let j = i; j < end; j++) out.push(bodyRef(links[j]!));
    yield out;
  }
}

/** A body link's reference (noteRefs' for it). */
export function bodyRef(l: ParsedNote['bodyLinks'][number]): Ref {
  return ref(l.name, l.target, null, l.line, LINK_REL, false);
}

/** The references of the frontmatter (noteRefs' first part, before the body's links). */
export function headRefs(note: ParsedNote, type: string | null, sv: SchemaView): Ref[] {
  const out: Ref[] = [];
  const titleField = sv.schema.title_field;
  // the fields of this type that map to a relationship, when the schema view says (else every key is asked)
  const mapped = sv.mappedFields?.(type);
  if (mapped && mapped.size === 0) {
    // no field but `related` makes a relationship: only it, wherever it is among the keys
    if (Object.hasOwn(note.frontmatter, 'related')) fieldRefsInto(out, note, 'related', RELATED_REL, false);
  } else {
    for (const field of Object.keys(note.frontmatter)) {
      if (field === 'related') { fieldRefsInto(out, note, field, RELATED_REL, false); continue; }
      if (mapped && !mapped.has(field)) continue;
      if (isReservedField(field, titleField)) continue;
      const m = sv.mapping(type, field);
      if (m) fieldRefsInto(out, note, field, m.relationship, m.reversed);
    }
  }
  // Wikilinks in fields that map to no relationship are still links (as in Obsidian).
  for (const l of note.fieldLinks) {
    if (l.field === undefined || l.field === 'related' || isReservedField(l.field, titleField)) continue;
    if (mapped ? mapped.has(l.field) : sv.mapping(type, l.field)) continue;
    out.push(ref(l.name, l.target, l.field, l.line, LINK_REL, false));
  }
  return out;
}

function fieldRefsInto(out: Ref[], note: ParsedNote, field: string, rel: string, reversed: boolean): void {
  forEachFieldRef(note, field, (name, _wikilink, target, line, props) => out.push(ref(name, target, field, line, rel, reversed, props)));
}

export function noteProperties(note: ParsedNote, type: string | null, sv: SchemaView): Record<string, PropertyValue> {
  const props: Record<string, PropertyValue> = {};
  const titleField = sv.schema.title_field;
  // read once (a cached note's frontmatter is not kept decoded for it: parse/frontmatter-once.ts); the values are the read's
  for (const [k, v] of Object.entries(frontmatterOnce(note))) {
    if (isReservedField(k, titleField) || sv.mapping(type, k)) continue;
    props[k] = v as PropertyValue;
  }
  return props;
}
