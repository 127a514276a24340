/**
 * The world's calendar in the timeline: event dates read against lorecraft.yaml
 * `calendar:`, ordered by the calendar (a month named Abyss after one named
 * Zenith), shown in the world's format, and a date it cannot read is a problem
 * with file and line.
 */
import { describe, expect, it } from 'vitest';
import { VaultConfigZ } from '../config/types.js';
import { buildTimelineIndex } from './timeline-index.js';
import { entity, eventNote, world, worldConfig } from './testkit.js';

const calendar = {
  months: [{ name: 'Zenith', days: 30 }, { name: 'Frostfall', days: 28 }, { name: 'Abyss', days: 31 }, { name: 'Thaw', days: 30 }, { name: 'Bloom', days: 30 }],
  weekdays: ['Moonday', 'Fireday', 'Restday'],
  eras: [{ name: 'Before Reckoning', abbr: 'BR', backwards: true }, { name: 'After Reckoning', abbr: 'AR' }],
};

function withCalendar() {
  const extra = [
    eventNote('war', 'a-abyss.md', 'title: Into the Abyss\ntype: event\nsession: 7\ndate_in_world: 3 Abyss 1204 AR'),
    eventNote('war', 'b-zenith.md', 'title: Zenith Feast\ntype: event\nsession: 8\ndate_in_world: Zenith 20, 1204 AR'),
    eventNote('war', 'c-ancient.md', 'title: The Old War\ntype: event\nsession: 9\ndate_in_world: 300 BR'),
    eventNote('war', 'd-bad.md', 'title: Smarch Madness\ntype: event\nsession: 9\ndate_in_world: 2 Smarch 1204 AR'),
  ];
  const input = world(extra);
  for (const e of extra) input.entities = [...input.entities, entity(e.layer, e.name, 'event', {}, { path: e.path })];
  return buildTimelineIndex({ ...input, config: VaultConfigZ.parse({ ...worldConfig, calendar }) });
}

describe('the timeline on the world calendar', () => {
  it('lists events in calendar order, not in alphabetical month order', () => {
    const ix = withCalendar();
    const names = ix.chronicle('war').map((e) => e.name);
    expect(names.indexOf('The Old War')).toBe(0);
    expect(names.indexOf('Zenith Feast')).toBeLessThan(names.indexOf('Into the Abyss'));
    // 1203-03 < 1203-05-01 < 1203-05-14 < c. 1204 AR (a year alone first) < 20 Zenith 1204 < 3 Abyss 1204; unreadable last
    expect(names).toEqual(['The Old War', 'The Council at Oldmere', 'An Omen', 'The Burning of Millbrook', 'Rebuilding', 'Zenith Feast', 'Into the Abyss', 'Smarch Madness']);
    const feast = ix.chronicle('war').find((e) => e.name === 'Zenith Feast')!;
    expect(feast.date).toMatchObject({ label: 'Zenith 20, 1204 AR', display: '20 Zenith 1204 AR', year: 1204, month: 1, day: 20 });
    expect(feast.date!.ordinal).toBe(1203 * 149 + 19);
  });

  it('shows session dates in the world format', () => {
    const s = withCalendar().sessions('war').find((x) => x.session === 8)!;
    expect(s.dateLabel).toBe('20 Zenith 1204 AR');
    expect(withCalendar().sessions('war').find((x) => x.session === 4)!.dateLabel).toBe('1 Bloom 1203 AR');
  });

  it('reports a date the calendar cannot read, with file, line and the reason', () => {
    const p = withCalendar().problems().find((x) => x.code === 'calendar-date');
    expect(p).toMatchObject({ file: 'war/d-bad.md', line: 5, field: 'date_in_world', severity: 'warning' });
    expect(p!.message).toContain("'2 Smarch' is not a month of the calendar");
  });

  it('without a calendar, dates keep their plain year-month-day order and no calendar problem', () => {
    const ix = buildTimelineIndex(world([eventNote('war', 'x.md', 'title: X\ntype: event\nsession: 9\ndate_in_world: 2 Smarch 1204 AR')]));
    expect(ix.problems().some((x) => x.code === 'calendar-date')).toBe(false);
  });
});
