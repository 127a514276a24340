/**
 * Relationship-type registry: which REL tables exist, their inverse (mirror
 * table) names and symmetry. Built from schema.yaml plus LINKS_TO / RELATED_TO
 * and any type met in edges (created on demand). Persisted in Meta('rels').
 */
import { LINK_REL, RELATED_REL } from '../../../shared/types.js';
import type { Schema } from '../../config/types.js';
import { CoreError } from '../../domain/errors.js';

export interface RelDef {
  name: string;
  inverse?: string;
  symmetric: boolean;
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
      reg.add({ name: rt.name, inverse: rt.inverse && rt.inverse !== rt.name ? rt.inverse : undefined, symmetric: rt.symmetric || rt.inverse === rt.name });
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
    const def: RelDef = { name: d.name, symmetric: d.symmetric };
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

export const REL_PROPS = 'field STRING, source STRING, line INT64';

export function relTableDDL(name: string): string {
  return `CREATE REL TABLE IF NOT EXISTS ${ident(name)}(FROM Entity TO Entity, ${REL_PROPS})`;
}

export const NODE_DDL = `CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, name STRING, type STRING, layer STRING, path STRING, hash STRING, tags STRING[], aliases STRING[], props STRING, body STRING, placeholder BOOLEAN, names_text STRING, tags_text STRING)`;
export const META_DDL = `CREATE NODE TABLE IF NOT EXISTS Meta(key STRING PRIMARY KEY, value STRING)`;
