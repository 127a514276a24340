import { describe, expect, it } from 'vitest';
import type { ProposedTypeView } from '../../../shared/contract-schema-setup.js';
import { initialChoices, mergeTargets, nameError, sourceText } from './model.js';

const c = (id: string, name: string, x: Partial<ProposedTypeView> = {}): ProposedTypeView => ({ id, name, rule: 'folder', keep: true, ruleCounts: {}, ...x });

describe('schema setup choices', () => {
  const cands = [c('folder:Characters', 'character', { folder: 'Characters' }), c('tag:npc', 'NPC', { tag: 'npc', rule: 'tag' }), c('folder:Misc', 'misc', { keep: false })];
  it('starts from the proposal\'s defaults', () => {
    expect(initialChoices(cands)['tag:npc']).toEqual({ id: 'tag:npc', name: 'NPC', rule: 'tag', keep: true });
  });
  it('offers the other kept types as merge targets', () => {
    const ch = initialChoices(cands);
    expect(mergeTargets(ch, 'folder:Characters')).toEqual(['NPC']);
    ch['tag:npc']!.name = 'character'; // merged
    expect(mergeTargets(ch, 'folder:Characters')).toEqual([]);
  });
  it('checks names and describes sources', () => {
    expect(nameError('9 lives')).toMatch(/start with a letter/);
    expect(nameError('place')).toBeNull();
    expect(sourceText(c('x', 'p', { folder: 'World/Places', tag: 'place' }))).toBe('folder World/Places/ · tag #place');
  });
});
