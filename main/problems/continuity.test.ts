/**
 * Continuity and layer rules over real vaults with a canonical 'setting' layer
 * and a campaign layer 'war' (events with sessions and consequences).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupVaults, md, validateVault, withCode } from './test-vault.js';

afterAll(cleanupVaults);

const setting = {
  'setting/Varo.md': md('title: Varo\ntype: npc\nstatus: alive'),
  'setting/Millbrook.md': md('title: Millbrook\ntype: settlement'),
  'setting/Red Hand.md': md('title: Red Hand\ntype: faction'),
  'setting/Iron Guild.md': md('title: Iron Guild\ntype: faction'),
};

const ev = (title: string, session: number, rest = '') => md(`title: ${title}\ntype: event\nsession: ${session}\n${rest}`);

describe('dead-participant', () => {
  it('a participant killed by an earlier session is reported at the later event, participants line', async () => {
    const r = await validateVault({
      ...setting,
      'war/Ambush.md': ev('Ambush', 1, 'participants: ["[[Varo]]"]\nconsequences:\n  - { entity: Varo, property: status, value: dead }'),
      'war/Feast.md': ev('Feast', 2, 'location: "[[Millbrook]]"\nparticipants: ["[[Varo]]", "[[Red Hand]]"]'),
    });
    const ps = withCode(r, 'dead-participant');
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ severity: 'error', file: 'war/Feast.md', line: 6, field: 'participants', entityId: 'war/feast' });
    expect(ps[0]!.message).toContain('Varo');
    expect(ps[0]!.message).toContain('Ambush');
  });

  it('a place destroyed earlier used as location is reported on the location field', async () => {
    const r = await validateVault({
      ...setting,
      'war/Burning.md': ev('Burning', 3, 'consequences:\n  - { entity: Millbrook, destroyed: true }'),
      'war/Return.md': ev('Return', 4, 'location: "[[Millbrook]]"'),
    });
    expect(withCode(r, 'dead-participant')).toMatchObject([{ file: 'war/Return.md', field: 'location', line: 5 }]);
  });

  it('not reported: the killing event itself, events before it, a revived entity, the same session without dates', async () => {
    const r = await validateVault({
      ...setting,
      'war/Before.md': ev('Before', 1, 'participants: ["[[Varo]]"]'),
      'war/Ambush.md': ev('Ambush', 2, 'participants: ["[[Varo]]"]\nconsequences:\n  - { entity: Varo, property: status, value: dead }'),
      'war/Same.md': ev('Same Session', 2, 'participants: ["[[Varo]]"]'),
      'war/Miracle.md': ev('Miracle', 3, 'consequences:\n  - { entity: Varo, property: status, value: alive }'),
      'war/After.md': ev('After', 4, 'participants: ["[[Varo]]"]'),
    });
    expect(withCode(r, 'dead-participant')).toEqual([]);
  });

  it('same session: reported only when the in-world dates say it is later', async () => {
    const r = await validateVault({
      ...setting,
      'war/Ambush.md': ev('Ambush', 2, 'date_in_world: 1203-05-01\nconsequences:\n  - { entity: Varo, property: status, value: dead }'),
      'war/Later.md': ev('Later', 2, 'date_in_world: 1203-05-09\nparticipants: ["[[Varo]]"]'),
    });
    expect(withCode(r, 'dead-participant')).toMatchObject([{ file: 'war/Later.md', field: 'participants' }]);
  });
});

describe('participant-before-creation', () => {
  it('an entity a later event creates cannot take part earlier', async () => {
    const files = {
      ...setting,
      'setting/New Town.md': md('title: New Town\ntype: settlement'),
      'war/Founding.md': ev('Founding', 5, 'consequences:\n  - { entity: New Town, created: true }'),
    };
    const bad = await validateVault({ ...files, 'war/Early.md': ev('Early', 2, 'location: "[[New Town]]"') });
    expect(withCode(bad, 'participant-before-creation')).toMatchObject([{ severity: 'warning', file: 'war/Early.md', field: 'location' }]);
    const good = await validateVault({ ...files, 'war/Late.md': ev('Late', 6, 'location: "[[New Town]]"') });
    expect(withCode(good, 'participant-before-creation')).toEqual([]);
  });
});

describe('overlapping-rulers', () => {
  it('canonical base: two rulers of one place (also through the inverse field), reported on each declaring line', async () => {
    const r = await validateVault({
      ...setting,
      'setting/Red Hand.md': md('title: Red Hand\ntype: faction\nrules: "[[Millbrook]]"'),
      'setting/Millbrook.md': md('title: Millbrook\ntype: settlement\nruled_by: "[[Iron Guild]]"'),
    });
    const ps = withCode(r, 'overlapping-rulers');
    expect(ps.map((p) => [p.file, p.line, p.field])).toEqual([
      ['setting/Millbrook.md', 4, 'ruled_by'],
      ['setting/Red Hand.md', 4, 'rules'],
    ]);
    expect(ps[0]!.message).toContain("'Iron Guild' and 'Red Hand'");
    expect(ps.map((p) => p.entityId)).toEqual(['setting/millbrook', 'setting/red hand']);
  });

  it('timeline: an event adding a second ruler is reported once, at the consequence, from its session', async () => {
    const r = await validateVault({
      ...setting,
      'setting/Red Hand.md': md('title: Red Hand\ntype: faction\nrules: "[[Millbrook]]"'),
      'war/Coup.md': ev('Coup', 2, 'consequences:\n  - { entity: Iron Guild, relationship: RULES, add: Millbrook }'),
      'war/Later.md': ev('Later', 3, 'participants: ["[[Varo]]"]'),
    });
    const ps = withCode(r, 'overlapping-rulers');
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ file: 'war/Coup.md', line: 6, entityId: 'war/coup' });
    expect(ps[0]!.message).toContain('session 2');
    expect(ps[0]!.message).toContain('Millbrook');
  });

  it("a campaign layer's own notes adding a second ruler are reported before its first session", async () => {
    const r = await validateVault({
      ...setting,
      'setting/Red Hand.md': md('title: Red Hand\ntype: faction\nrules: "[[Millbrook]]"'),
      'war/Usurpers.md': md('title: Usurpers\ntype: faction\nrules: "[[Millbrook]]"'),
      'war/Later.md': ev('Later', 3, 'participants: ["[[Varo]]"]'),
    });
    const ps = withCode(r, 'overlapping-rulers');
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ file: 'war/Usurpers.md', line: 4, field: 'rules', entityId: 'war/usurpers' });
    expect(ps[0]!.message).toContain('before its first session');
  });

  it('not reported: a clean handover, a dead ruler replaced, one ruler each, no rules: true type', async () => {
    const base = { ...setting, 'setting/Red Hand.md': md('title: Red Hand\ntype: faction\nrules: "[[Millbrook]]"') };
    const handover = await validateVault({
      ...base,
      'war/Coup.md': ev('Coup', 2, 'consequences:\n  - { entity: Red Hand, relationship: RULES, remove: Millbrook }\n  - { entity: Iron Guild, relationship: RULES, add: Millbrook }'),
    });
    expect(withCode(handover, 'overlapping-rulers')).toEqual([]);
    const fall = await validateVault({
      ...base,
      'war/Fall.md': ev('Fall', 2, 'consequences:\n  - { entity: Red Hand, destroyed: true }\n  - { entity: Iron Guild, relationship: RULES, add: Millbrook }'),
    });
    expect(withCode(fall, 'overlapping-rulers')).toEqual([]);
    const noRulesType = (await import('./test-vault.js')).SCHEMA.replace('rules: true', 'rules: false');
    const off = await validateVault({ ...setting, 'setting/Red Hand.md': base['setting/Red Hand.md'], 'setting/Millbrook.md': md('title: Millbrook\ntype: settlement\nruled_by: "[[Iron Guild]]"') }, { schema: noRulesType });
    expect(withCode(off, 'overlapping-rulers')).toEqual([]);
  });
});

describe('layer and event rules found by the timeline (gathered)', () => {
  it('cross-layer-edit: a campaign note redefining a setting entity', async () => {
    const bad = await validateVault({ ...setting, 'war/Varo.md': md('title: Varo\ntype: npc\nstatus: dead') });
    expect(withCode(bad, 'cross-layer-edit')).toMatchObject([{ file: 'war/Varo.md' }]);
    const good = await validateVault({ ...setting, 'war/Kill.md': ev('Kill', 1, 'consequences:\n  - { entity: Varo, property: status, value: dead }') });
    expect(withCode(good, 'cross-layer-edit')).toEqual([]);
  });

  it('event-unknown-entity / event-unknown-property: consequences naming what does not exist, at the item line', async () => {
    const r = await validateVault({
      ...setting,
      'war/Kill.md': ev('Kill', 1, 'consequences:\n  - { entity: Nobody, property: status, value: dead }\n  - { entity: Varo, property: mood, value: sad }'),
    });
    expect(withCode(r, 'event-unknown-entity')).toMatchObject([{ file: 'war/Kill.md', line: 6, field: 'consequences' }]);
    expect(withCode(r, 'event-unknown-property')).toMatchObject([{ file: 'war/Kill.md', line: 7, field: 'consequences' }]);
    const good = await validateVault({ ...setting, 'war/Kill.md': ev('Kill', 1, 'consequences:\n  - { entity: Varo, property: status, value: dead }') });
    expect(withCode(good, 'event-unknown-entity')).toEqual([]);
    expect(withCode(good, 'event-unknown-property')).toEqual([]);
  });
});
