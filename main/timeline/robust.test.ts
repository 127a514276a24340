/**
 * Bad input never crashes the timeline: arbitrary frontmatter values in event
 * notes give problems (with file and line), never exceptions.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { buildTimelineIndex } from './timeline-index.js';
import { entity, eventNote, world } from './testkit.js';

const names = fc.constantFrom('Captain Varo', 'Red Hand', 'Millbrook', 'Nobody', '[[Oldmere]]', '', 'New Millbrook');
const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), names);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 2 }));
const item = fc.oneof(
  value,
  fc.record({
    entity: fc.oneof(names, value),
    property: fc.option(fc.oneof(fc.constantFrom('status', 'holdings', 'title', 'mood'), value), { nil: undefined }),
    relationship: fc.option(fc.oneof(fc.constantFrom('ALLIED_WITH', 'HAS_MEMBER', 'NOPE'), value), { nil: undefined }),
    value: fc.option(value, { nil: undefined }),
    add: fc.option(fc.oneof(names, value), { nil: undefined }),
    remove: fc.option(fc.oneof(names, value), { nil: undefined }),
    unset: fc.option(fc.oneof(fc.constant(true), value), { nil: undefined }),
    created: fc.option(fc.oneof(fc.constant(true), value), { nil: undefined }),
    destroyed: fc.option(fc.oneof(fc.constant(true), value), { nil: undefined }),
  }, { requiredKeys: [] }),
);

describe('robustness', () => {
  it('arbitrary event frontmatter gives problems with file and line, never an exception', () => {
    fc.assert(fc.property(
      fc.oneof(fc.integer({ min: -3, max: 9 }), value), fc.oneof(fc.array(item, { maxLength: 6 }), value), value, value,
      (session, consequences, participants, date) => {
        const fm = { title: 'Fuzz', type: 'event', session, date_in_world: date, participants, location: participants, consequences };
        const text = stringify(fm, { defaultKeyType: 'PLAIN' });
        const w = world([eventNote('war', 'fuzz.md', text)]);
        w.entities = [...w.entities, entity('war', 'Fuzz', 'event', {}, { path: 'war/fuzz.md' })];
        const ix = buildTimelineIndex(w);
        for (const p of ix.problems().filter((x) => x.file === 'war/fuzz.md' && x.code !== 'event-session')) {
          expect(p.line, JSON.stringify(p)).toBeGreaterThan(1);
        }
        ix.graphAt('war', 3); ix.graphAt('war', null); ix.diff('war', 0, 9); ix.timeline('war', { entity: 'Red Hand' });
        ix.frame('war', 5);
      },
    ), { numRuns: 60 });
  });
});
