/**
 * Plain-data worlds for the timeline tests (no parser, no db): entities,
 * relationships and event notes written as real markdown text.
 */
import { entityId } from '../../shared/names.js';
import type { EntityRecord, RelationshipRecord } from '../../shared/types.js';
import { SchemaZ, VaultConfigZ } from '../config/types.js';
import type { TimelineInput } from './compile.js';
import type { EventNoteInput } from './events.js';
import { eventNoteFromSource } from './source.js';

export function entity(layer: string, name: string, type: string | null, properties: Record<string, unknown> = {}, extra: Partial<EntityRecord> = {}): EntityRecord {
  return {
    id: entityId(layer, name), name, type, layer, path: `${layer}/${name}.md`, hash: 'h', tags: [], aliases: [],
    properties: properties as EntityRecord['properties'], body: '', placeholder: false, ...extra,
  };
}

export function rel(from: string, type: string, to: string, source = 'x.md'): RelationshipRecord {
  return { from, to, type, field: null, source, line: 2 };
}

export const worldSchema = SchemaZ.parse({
  entity_types: [
    { name: 'npc', properties: [
      { name: 'status', type: 'enum', values: ['alive', 'dead', 'unknown'] },
      { name: 'title', type: 'string' },
      { name: 'titles', type: 'list' },
    ], field_mappings: [{ field: 'faction', relationship: 'MEMBER_OF', target_type: 'faction' }] },
    { name: 'faction', properties: [{ name: 'holdings', type: 'list' }, { name: 'leader', type: 'string' }] },
    { name: 'settlement', properties: [{ name: 'size', type: 'enum', values: ['hamlet', 'village', 'town', 'city'] }] },
    { name: 'event', properties: [] },
  ],
  relationship_types: [
    { name: 'MEMBER_OF', inverse: 'HAS_MEMBER' },
    { name: 'ALLIED_WITH', symmetric: true },
  ],
});

export const worldConfig = VaultConfigZ.parse({
  layers: [
    { name: 'setting', paths: ['setting'], canonical: true },
    { name: 'war', paths: ['war'], canonical: false, depends_on: ['setting'] },
    { name: 'peace', paths: ['peace'], canonical: false, depends_on: ['setting'] },
  ],
});

const S = (n: string) => entityId('setting', n);

export function eventNote(layer: string, file: string, yaml: string): EventNoteInput {
  return eventNoteFromSource({ path: `${layer}/${file}`, layer, text: `---\n${yaml.trim()}\n---\nBody.\n` });
}

/** The campaign 'war' over the canonical 'setting'; 'peace' is a second campaign over the same setting. */
export function world(extraEvents: EventNoteInput[] = []): TimelineInput {
  const entities: EntityRecord[] = [
    entity('setting', 'Captain Varo', 'npc', { status: 'alive' }),
    entity('setting', 'Lady Wren', 'npc', { status: 'alive', title: 'Lady of Oldmere' }),
    entity('setting', 'Red Hand', 'faction', { holdings: ['[[Oldmere]]'] }),
    entity('setting', 'Iron Guild', 'faction'),
    entity('setting', 'Guild of Ash', 'faction'),
    entity('setting', 'Millbrook', 'settlement', { size: 'village' }),
    entity('setting', 'Oldmere', 'settlement', { size: 'town' }),
  ];
  const events = [
    eventNote('war', 'burning.md', `
title: The Burning of Millbrook
type: event
session: 4
date_in_world: 1203-05-14
participants: ["[[Captain Varo]]", "[[Red Hand]]"]
location: "[[Millbrook]]"
consequences:
  - { entity: Millbrook, destroyed: true }
  - { entity: Captain Varo, property: status, value: dead }
  - { entity: Red Hand, property: holdings, add: Millbrook }
  - { entity: Red Hand, property: holdings, remove: Oldmere }
  - { entity: Lady Wren, property: title, unset: true }
  - { entity: Red Hand, relationship: ALLIED_WITH, add: Iron Guild }
  - { entity: Red Hand, relationship: ALLIED_WITH, remove: Guild of Ash }
  - { entity: New Millbrook, created: true }
`),
    eventNote('war', 'council.md', `
title: The Council at Oldmere
type: event
session: 2
date_in_world: 1203-03
participants: ["[[Lady Wren]]"]
location: "[[Oldmere]]"
consequences:
  - entity: Lady Wren
    property: titles
    add: Regent
`),
    // same session as the burning, earlier in-world date: applied first
    eventNote('war', 'z-omen.md', `
title: An Omen
type: event
session: 4
date_in_world: 1203-05-01
participants: ["[[Captain Varo]]"]
consequences:
  - { entity: Captain Varo, property: status, value: unknown }
`),
    eventNote('war', 'rebuild.md', `
title: Rebuilding
type: event
session: 6
date_in_world: c. 1204 AR
consequences:
  - { entity: New Millbrook, property: size, value: hamlet }
  - { entity: Captain Varo, relationship: HAS_MEMBER, add: Lady Wren }
`),
    eventNote('peace', 'treaty.md', `
title: The Treaty
type: event
session: 1
date_in_world: 1203
participants: [Red Hand, Guild of Ash]
consequences:
  - { entity: Red Hand, property: leader, value: Lady Wren }
`),
    ...extraEvents,
  ];
  for (const e of events) entities.push(entity(e.layer, e.name, 'event', {}, { path: e.path }));
  const relationships = [rel(S('Red Hand'), 'ALLIED_WITH', S('Guild of Ash')), rel(S('Captain Varo'), 'MEMBER_OF', S('Red Hand'))];
  return { config: worldConfig, schema: worldSchema, entities, relationships, events };
}
