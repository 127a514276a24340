/**
 * Relationship-type registry: which REL tables exist, their inverse (mirror
 * table) names and symmetry. Built from schema.yaml plus LINKS_TO / RELATED_TO
 * and any type met in edges (created on demand). Persisted in the store's record ('rels', meta.ts).
 */
import { LINK_REL, RELATED_REL } from '../../../shared/types.js';
import type { PropertyDef, Schema } from '../../config/types.js';
import { CoreError } from '../../domain/errors.js';

export interface RelDef {
  name: string;
  inverse?: string;
  symmetric: boolean;
  /** declared relationship properties: typed columns of the type's table and of its mirror */
  columns?: RelColumn[];
}

export type RelColumnType = 'STRING' | 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'STRING[]';
export interface RelColumn { name: string; type: RelColumnType }

/** Columns every REL table has; a declared property of one of these names lives in `props` (JSON) only. */
const BASE_COLUMNS = new Set(['field', 'source', 'line', 'props', 'from', 'to', '_id', '_src', '_dst']);

function columnOf(p: PropertyDef): RelColumn | null {
  if (!IDENT.test(p.name) || BASE_COLUMNS.has(p.name.toLowerCase()) || RESERVED.has(p.name.toUpperCase())) return null;
  const type: RelColumnType = p.type === 'integer' ? 'INT64' : p.type === 'number' ? 'DOUBLE' : p.type === 'boolean' ? 'BOOLEAN' : p.type === 'list' ? 'STRING[]' : 'STRING';
  return { name: p.name, type };
}

/** A property value as its column holds it; null when it does not fit (the problem is reported by validation). */
export function columnValue(v: unknown, type: RelColumnType): unknown {
  if (v === undefined || v === null) return null;
  switch (type) {
    case 'INT64': return typeof v === 'number' && Number.isInteger(v) ? v : null;
    case 'DOUBLE': return typeof v === 'number' && Number.isFinite(v) ? v : null;
    case 'BOOLEAN': return typeof v === 'boolean' ? v : null;
    case 'STRING[]': return (Array.isArray(v) ? v : [v]).filter((x) => x !== null && typeof x !== 'object').map(String);
    default: return typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
}

/** Table names the store uses itself; a relationship type may not take them (Kùzu names are case-insensitive). */
const RESERVED = new Set(['ENTITY', 'META']);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Guard + quote an identifier for DDL/DML text (identifiers cannot be parameters). */
export function ident(name: string): string {
  if (!IDENT.test(name) || RESERVED.has(name.toUpperCase())) {
    throw new CoreError('store-bad-identifier', `"${name}" cannot be a relationship table name: use UPPER_SNAKE_CASE letters, digits and _ (and not Entity/Meta)`);
  }
  return '`' + name + '`';
}

export class RelRegistry {
  private readonly defs = new Map<string, RelDef>();
  /** inverse name -> canonical name */
  private readonly inverseOf = new Map<string, string>();

  static fromSchema(schema: Schema): RelRegistry {
    const reg = new RelRegistry();
    for (const rt of schema.relationship_types) {
      const columns = (rt.properties ?? []).map(columnOf).filter((c): c is RelColumn => c !== null);
      reg.add({ name: rt.name, inverse: rt.inverse && rt.inverse !== rt.name ? rt.inverse : undefined, symmetric: rt.symmetric || rt.inverse === rt.name, ...(columns.length ? { columns } : {}) });
    }
    if (!reg.has(LINK_REL)) reg.add({ name: LINK_REL, symmetric: false });
    if (!reg.has(RELATED_REL)) reg.add({ name: RELATED_REL, symmetric: true });
    return reg;
  }

  static fromJSON(json: string): RelRegistry {
    const reg = new RelRegistry();
    for (const d of JSON.parse(json) as RelDef[]) reg.add(d);
    return reg;
  }

  toJSON(): string {
    return JSON.stringify([...this.defs.values()]);
  }

  add(d: RelDef): void {
    ident(d.name);
    if (d.inverse) ident(d.inverse);
    if (this.defs.has(d.name) || this.inverseOf.has(d.name)) return;
    const def: RelDef = { name: d.name, symmetric: d.symmetric, ...(d.columns?.length ? { columns: d.columns } : {}) };
    if (d.inverse && !d.symmetric && !this.defs.has(d.inverse) && !this.inverseOf.has(d.inverse)) {
      def.inverse = d.inverse;
      this.inverseOf.set(d.inverse, d.name);
    }
    this.defs.set(d.name, def);
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  get(name: string): RelDef | undefined {
    return this.defs.get(name);
  }

  all(): RelDef[] {
    return [...this.defs.values()];
  }

  /** canonical table names */
  names(): string[] {
    return [...this.defs.keys()];
  }

  /** every REL table: canonical and mirrors */
  tables(): string[] {
    const out: string[] = [];
    for (const d of this.defs.values()) {
      out.push(d.name);
      if (d.inverse) out.push(d.inverse);
    }
    return out;
  }

  /** the declared property columns of a table (a mirror has its canonical type's) */
  columns(table: string): RelColumn[] {
    return this.defs.get(table)?.columns ?? this.defs.get(this.inverseOf.get(table) ?? '')?.columns ?? [];
  }

  /** Resolve a canonical or inverse name: returns the canonical name and whether `name` was the inverse. */
  resolve(name: string): { canonical: string; inverted: boolean } | null {
    if (this.defs.has(name)) return { canonical: name, inverted: false };
    const c = this.inverseOf.get(name);
    return c ? { canonical: c, inverted: true } : null;
  }

  /** Label and direction of an edge of `type` seen from one end ('out' = that end is the source). */
  view(type: string, seenFrom: 'out' | 'in'): { label: string; direction: 'out' | 'in' | 'both' } {
    const d = this.defs.get(type);
    if (d?.symmetric) return { label: type, direction: 'both' };
    if (seenFrom === 'in') return { label: d?.inverse ?? type, direction: 'in' };
    return { label: type, direction: 'out' };
  }
}

/** `props`: the relationship's own properties as JSON (every key of its map item but `to`), null for a plain item */
export const REL_PROPS = 'field STRING, source STRING, line INT64, props STRING';

export function relTableDDL(name: string, columns: RelColumn[] = []): string {
  return `CREATE REL TABLE IF NOT EXISTS ${ident(name)}(FROM Entity TO Entity, ${REL_PROPS}${columns.map((c) => `, ${ident(c.name)} ${c.type}`).join('')})`;
}

export const NODE_DDL = `CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, name STRING, type STRING, layer STRING, path STRING, hash STRING, tags STRING[], aliases STRING[], props STRING, body STRING, placeholder BOOLEAN, names_text STRING, tags_text STRING)`;
