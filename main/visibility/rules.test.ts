/**
 * The visibility rules answer per type from a table built once per type name (what the players' lens asks once
 * per note and per relationship): the same answers as reading the schema's lists every time (written out here
 * as the rules were before), for known and unknown types, any case, repeated names and both vault defaults.
 */
import { describe, expect, it } from 'vitest';
import { SchemaZ, VaultConfigZ, type Schema, type VaultConfig } from '../config/types.js';
import { visibilityRules } from './rules.js';

const norm = (v: unknown): 'gm' | 'players' | null => {
  if (typeof v !== 'string') return null;
  const s = v.trim().toLowerCase();
  if (s === 'gm' || s === 'dm' || s === 'secret') return 'gm';
  if (s === 'players' || s === 'player' || s === 'public') return 'players';
  return null;
};

/** the rules read from the schema's lists at every question */
function plainRules(config: VaultConfig, schema: Schema) {
  const field = config.visibility?.field ?? 'visibility';
  const vaultDefault = config.visibility?.default ?? 'players';
  const typeOf = (type: string | null) => (type ? schema.entity_types.find((t) => t.name.toLowerCase() === type.toLowerCase()) : undefined);
  return {
    noteVisibility: (e: { type: string | null; properties: Record<string, unknown> }) =>
      norm(e.properties[field]) ?? norm(typeOf(e.type)?.properties.find((p) => p.name === field)?.default) ?? vaultDefault,
    isSecretProperty: (type: string | null, property: string) => !!typeOf(type)?.properties.find((p) => p.name === property)?.secret,
    isSecretField: (type: string | null, f: string | null) => !!f && !!typeOf(type)?.field_mappings.find((m) => m.field === f)?.secret,
  };
}

const schema = SchemaZ.parse({
  entity_types: [
    { name: 'npc', properties: [
      { name: 'visibility', type: 'string', default: 'gm' },
      { name: 'motive', type: 'string', secret: true },
      { name: 'title', type: 'string' },
      // a second declaration of a name: the first one decides
      { name: 'title', type: 'string', secret: true },
      { name: 'motive', type: 'string' },
    ], field_mappings: [
      { field: 'patron', relationship: 'SERVES', target_type: 'npc', secret: true },
      { field: 'faction', relationship: 'MEMBER_OF', target_type: 'faction' },
      { field: 'faction', relationship: 'MEMBER_OF', target_type: 'faction', secret: true },
    ] },
    { name: 'Faction', properties: [{ name: 'visibility', type: 'string', default: 'nonsense' }, { name: 'hq', type: 'string', secret: true }] },
    { name: 'place', properties: [{ name: 'visibility', type: 'string', default: 'Players' }] },
  ],
  relationship_types: [{ name: 'SERVES' }, { name: 'MEMBER_OF' }],
});

describe('visibility rules', () => {
  for (const config of [VaultConfigZ.parse({}), VaultConfigZ.parse({ visibility: { default: 'gm', field: 'seen_by' } })]) {
    it(`answer as the schema's lists do (default ${config.visibility?.default ?? 'players'})`, () => {
      const fast = visibilityRules(config, schema), plain = plainRules(config, schema);
      const types = ['npc', 'NPC', 'Npc', 'faction', 'Faction', 'place', 'monster', null];
      const names = ['visibility', 'seen_by', 'motive', 'title', 'hq', 'patron', 'faction', 'nothing'];
      const values = [undefined, 'gm', 'DM', ' players ', 'public', 'secret', 'maybe', 3];
      let asked = 0;
      // twice: the second round answers from the table the first one built
      for (let round = 0; round < 2; round++) {
        for (const type of types) {
          for (const n of names) {
            expect(fast.isSecretProperty(type, n), `${type} ${n}`).toBe(plain.isSecretProperty(type, n));
            expect(fast.isSecretField(type, n), `${type} ${n}`).toBe(plain.isSecretField(type, n));
            asked += 2;
          }
          expect(fast.isSecretField(type, null)).toBe(false);
          for (const v of values) {
            for (const f of ['visibility', 'seen_by']) {
              const e = { type, properties: v === undefined ? {} : { [f]: v }, placeholder: false } as Parameters<typeof fast.noteVisibility>[0];
              expect(fast.noteVisibility(e), `${type} ${f}=${String(v)}`).toBe(plain.noteVisibility(e));
              asked++;
            }
          }
        }
      }
      expect(asked).toBeGreaterThan(300);
      // the cases the table must get right are there: a secret first declaration, a plain one, a type default
      expect(fast.isSecretProperty('npc', 'motive')).toBe(true);
      expect(fast.isSecretProperty('npc', 'title')).toBe(false);
      expect(fast.isSecretField('NPC', 'faction')).toBe(false);
      expect(fast.isSecretField('npc', 'patron')).toBe(true);
    });
  }
});
