/** Mapping between domain records and Entity rows, and Kùzu values -> plain JSON. */
import type { EntityRecord, EntitySummary, PropertyValue } from '../../../shared/types.js';
import type { KuzuValue } from 'kuzu';
import type { Row } from './db.js';
import { storedBody } from './fts-text.js';

/** Column order of the Entity table (COPY and MERGE use it). */
export interface EntityRow {
  id: string;
  name: string;
  type: string | null;
  layer: string;
  path: string | null;
  hash: string | null;
  tags: string[];
  aliases: string[];
  props: string;
  body: string;
  placeholder: boolean;
  names_text: string;
  tags_text: string;
}

export function toEntityRow(e: EntityRecord): EntityRow {
  return {
    id: e.id,
    name: e.name,
    type: e.type,
    layer: e.layer,
    path: e.path,
    hash: e.hash,
    tags: e.tags,
    aliases: e.aliases,
    props: JSON.stringify(e.properties ?? {}),
    // a huge body: its prefix and distinct words (fts-text.ts), not the whole text
    body: storedBody(e.body),
    placeholder: e.placeholder,
    // joined by a space: Kùzu's FTS tokenizer splits on ' ' only, so a '\n' here fused the last word of one
    // name with the first of the next ('kingdom\nquux': neither 'kingdom' nor 'quux' was found)
    names_text: [e.name, ...e.aliases].join(' '),
    // tag hierarchy separators become spaces so 'Location/Settlement' matches 'settlement'
    tags_text: e.tags.map((t) => t.replace(/[/_-]+/g, ' ')).join(' '),
  };
}

/** Cypher projection that `rowToRecord` reads, for node variable `v`. */
export function recordProjection(v: string): string {
  return ['id', 'name', 'type', 'layer', 'path', 'hash', 'tags', 'aliases', 'props', 'body', 'placeholder']
    .map((c) => `${v}.${c} AS ${c}`).join(', ');
}

export function summaryProjection(v: string, prefix = ''): string {
  return ['id', 'name', 'type', 'layer', 'path', 'placeholder', 'tags']
    .map((c) => `${v}.${c} AS ${prefix}${c}`).join(', ');
}

const str = (v: KuzuValue | undefined): string => (typeof v === 'string' ? v : '');
const strOrNull = (v: KuzuValue | undefined): string | null => (typeof v === 'string' ? v : null);
const strList = (v: KuzuValue | undefined): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function rowToRecord(r: Row): EntityRecord {
  let properties: Record<string, PropertyValue> = {};
  try {
    const parsed: unknown = JSON.parse(str(r.props) || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) properties = parsed as Record<string, PropertyValue>;
  } catch {
    properties = {};
  }
  return {
    id: str(r.id),
    name: str(r.name),
    type: strOrNull(r.type),
    layer: str(r.layer),
    path: strOrNull(r.path),
    hash: strOrNull(r.hash),
    tags: strList(r.tags),
    aliases: strList(r.aliases),
    properties,
    body: str(r.body),
    placeholder: r.placeholder === true,
  };
}

export function rowToSummary(r: Row, prefix = ''): EntitySummary {
  return {
    id: str(r[prefix + 'id']),
    name: str(r[prefix + 'name']),
    type: strOrNull(r[prefix + 'type']),
    layer: str(r[prefix + 'layer']),
    path: strOrNull(r[prefix + 'path']),
    placeholder: r[prefix + 'placeholder'] === true,
    tags: strList(r[prefix + 'tags']),
  };
}

/** Kùzu value -> JSON-safe value: BigInt to number (or string past 2^53), dates to ISO, nodes/rels to objects. */
export function toPlain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.map(toPlain);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) {
      if (k === '_id' || k === '_src' || k === '_dst') {
        const id = x as { table?: number; offset?: number } | null;
        out[k] = id && typeof id === 'object' ? `${String(id.table)}:${String(id.offset)}` : toPlain(x);
      } else {
        out[k] = toPlain(x);
      }
    }
    return out;
  }
  return String(v);
}
