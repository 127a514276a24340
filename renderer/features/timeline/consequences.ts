/**
 * Consequences in the UI (pure, tested): a row of the consequences editor
 * (Draft) <-> one consequence as written in an event note's frontmatter
 * (docs/architecture.md "Events"), and the sentence the panel reads it as.
 * "killed" is `property: <status field>, value: dead`, which the timeline
 * reads as death (main/timeline/compile.ts isDead). Shapes the editor does not
 * offer (a list add/remove, unset, created) stay as they are ('raw').
 */
import { refName } from '../../../shared/wikilinks.js';

export type DraftKind = 'killed' | 'destroyed' | 'set' | 'rel-add' | 'rel-remove' | 'raw';

export interface Draft {
  entity: string;
  kind: DraftKind;
  property?: string;
  value?: string;
  relationship?: string;
  target?: string;
  /** 'raw': the consequence as read, written back unchanged */
  raw?: Record<string, unknown>;
}

export type ConsequenceInput = Record<string, unknown> & { entity: string };

export const KIND_LABEL: Record<Exclude<DraftKind, 'raw'>, string> = {
  killed: 'is killed',
  destroyed: 'is destroyed',
  set: 'has a property set',
  'rel-add': 'gains a relationship',
  'rel-remove': 'loses a relationship',
};

/** A [[link]] or a plain name -> the name. */
export function plainName(v: unknown): string {
  return refName(String(v ?? ''));
}

/** What is missing before a draft can be written (null when complete). */
export function draftProblem(d: Draft): string | null {
  if (!d.entity.trim()) return 'which entity?';
  if (d.kind === 'set' && !d.property?.trim()) return 'which property?';
  if (d.kind === 'set' && !d.value?.trim()) return 'which value?';
  if ((d.kind === 'rel-add' || d.kind === 'rel-remove') && !d.relationship?.trim()) return 'which relationship?';
  if ((d.kind === 'rel-add' || d.kind === 'rel-remove') && !d.target?.trim()) return 'with whom?';
  return null;
}

export function toInput(d: Draft, statusField: string): ConsequenceInput {
  const entity = d.entity.trim();
  switch (d.kind) {
    case 'killed': return { entity, property: statusField, value: 'dead' };
    case 'destroyed': return { entity, destroyed: true };
    case 'set': return { entity, property: d.property!.trim(), value: d.value!.trim() };
    case 'rel-add': return { entity, relationship: d.relationship!.trim(), add: d.target!.trim() };
    case 'rel-remove': return { entity, relationship: d.relationship!.trim(), remove: d.target!.trim() };
    case 'raw': return { ...(d.raw ?? {}), entity };
  }
}

export function fromInput(c: unknown, statusFields: readonly string[], deadValues: readonly string[] = ['dead']): Draft {
  const o = (c && typeof c === 'object' && !Array.isArray(c) ? c : {}) as Record<string, unknown>;
  const entity = plainName(o.entity);
  const keys = Object.keys(o).filter((k) => k !== 'entity').sort().join(',');
  if (keys === 'destroyed' && o.destroyed === true) return { entity, kind: 'destroyed' };
  if (keys === 'property,value' && typeof o.property === 'string' && ['string', 'number', 'boolean'].includes(typeof o.value)) {
    if (statusFields.includes(o.property) && deadValues.includes(String(o.value).toLowerCase())) return { entity, kind: 'killed' };
    return { entity, kind: 'set', property: o.property, value: String(o.value) };
  }
  if ((keys === 'add,relationship' || keys === 'relationship,remove') && typeof o.relationship === 'string') {
    const add = keys.startsWith('add');
    return { entity, kind: add ? 'rel-add' : 'rel-remove', relationship: o.relationship, target: plainName(add ? o.add : o.remove) };
  }
  return { entity, kind: 'raw', raw: o };
}

/** A part of a sentence: text, or an entity name to render as a link. */
export type Part = { text: string } | { link: string };

const rel = (r: string) => r.toLowerCase().replace(/_/g, ' ');

/** The sentence the panel shows for a consequence: "Captain Varo is killed (status: dead)". */
export function sentence(c: unknown, statusFields: readonly string[]): Part[] {
  const d = fromInput(c, statusFields);
  const o = (c ?? {}) as Record<string, unknown>;
  const who: Part = { link: d.entity };
  switch (d.kind) {
    case 'killed': return [who, { text: ` is killed (${String(o.property)}: ${String(o.value)})` }];
    case 'destroyed': return [who, { text: ' is destroyed' }];
    case 'set': return [who, { text: `: ${d.property} becomes ${d.value}` }];
    case 'rel-add': return [who, { text: ` now ${rel(d.relationship!)} ` }, { link: d.target! }];
    case 'rel-remove': return [who, { text: ` no longer ${rel(d.relationship!)} ` }, { link: d.target! }];
    case 'raw': break;
  }
  if (o.created === true) return [who, { text: ' comes into being' }];
  if (typeof o.property === 'string' && o.unset === true) return [who, { text: `: ${o.property} is cleared` }];
  if (typeof o.property === 'string' && o.add !== undefined) return [who, { text: `: ${plainName(o.add)} is added to ${o.property}` }];
  if (typeof o.property === 'string' && o.remove !== undefined) return [who, { text: `: ${plainName(o.remove)} is removed from ${o.property}` }];
  return [who, { text: `: ${JSON.stringify(Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'entity')))}` }];
}
