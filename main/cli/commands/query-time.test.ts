import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runTime } from './query-time.js';

const SAMPLE = fileURLToPath(new URL('../../../resources/sample-world', import.meta.url));

async function cli(sub: 'state' | 'timeline' | 'diff', ...argv: string[]) {
  const out: string[] = [], err: string[] = [];
  const code = await runTime(sub, [...argv, '--vault', SAMPLE], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('lorecraft query state/timeline/diff', () => {
  it('state shows values with the event they come from', async () => {
    const r = await cli('state', 'Captain Varo', '--layer', 'campaign', '--session', '5');
    expect(r.code).toBe(0);
    expect(r.out).toContain('status: dead  ← event "The Death of Captain Varo" (session 5)');
    expect(r.out).toContain('lifecycle: destroyed');
    const before = await cli('state', 'Captain Varo', '--layer', 'campaign', '--session', '4');
    expect(before.out).toMatch(/status: alive\n/);
  });
  it('state --json is the EntityStateView', async () => {
    const r = await cli('state', 'Red Hand', '--layer', 'campaign', '--session', '4', '--json');
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ layer: 'campaign', session: 4, state: { id: 'setting/red hand', lifecycle: 'exists' } });
    expect(j.state.removedRelationships[0]).toMatchObject({ type: 'ALLIED_WITH', removedBy: { name: 'The Broken Pact' } });
  });
  it('defaults --layer to the only campaign layer and the session to after every event', async () => {
    const r = await cli('state', 'Millbrook', '--json');
    expect(JSON.parse(r.out)).toMatchObject({ layer: 'campaign', session: null, state: { lifecycle: 'destroyed' } });
  });
  it('timeline lists events by session, filtered by entity and range', async () => {
    const r = await cli('timeline', '--layer', 'campaign', '--entity', 'Tobin Reed', '--json');
    const j = JSON.parse(r.out);
    expect(j.events.length).toBeGreaterThan(1);
    expect(j.events.every((e: { participants: Array<{ name: string }>; consequences: Array<{ entityName: string }> }) =>
      e.participants.some((p) => p.name === 'Tobin Reed') || e.consequences.some((c) => c.entityName === 'Tobin Reed'))).toBe(true);
    expect(j.sessions[0]).toMatchObject({ session: 1, label: 'Session 1 · 2 Seedtide 1203 WR' });
    // --json lists events in calendar order, each with its date as written and its ordinal (days since the epoch)
    const ords = j.events.map((e: { ordinal: number }) => e.ordinal);
    expect(ords).toEqual([...ords].sort((a: number, b: number) => a - b));
    expect(j.events[0]).toMatchObject({ date_written: expect.stringMatching(/^1203-/), date_display: expect.stringMatching(/ 1203 WR$/) });
    expect(j.events[0].ordinal).toBe(1202 * 360 + (Number(j.events[0].date_written.slice(5, 7)) - 1) * 30 + Number(j.events[0].date_written.slice(8)) - 1);
    const human = await cli('timeline', '--layer', 'campaign', '--from', '3', '--to', '3');
    expect(human.out.split('\n')[0]).toBe('Session 3');
    expect(human.out).toContain('• Millbrook destroyed');
    expect(human.out).not.toContain('Session 4');
  });
  it('diff names what changed between two sessions', async () => {
    const r = await cli('diff', '--layer', 'campaign', '--from', '4', '--to', '5');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Captain Varo.status: alive → dead  ← event "The Death of Captain Varo" (session 5)');
    const j = JSON.parse((await cli('diff', '--layer', 'campaign', '--from', '4', '--to', '5', '--json')).out);
    expect(j.died.map((d: { name: string }) => d.name)).toEqual(['Captain Varo']);
  });
  it('usage errors exit 2, unknown names and layers exit 1', async () => {
    expect((await cli('diff', '--layer', 'campaign', '--from', '2')).code).toBe(2);
    expect((await cli('state', '--layer', 'campaign')).code).toBe(2);
    expect((await cli('state', 'Varo', '--session', 'soon')).code).toBe(2);
    const nobody = await cli('state', 'Nobody', '--layer', 'campaign');
    expect(nobody.code).toBe(1);
    expect(nobody.err).toContain("no entity 'Nobody' in layer 'campaign'");
    const layer = await cli('timeline', '--layer', 'nope');
    expect(layer.code).toBe(1);
    expect(layer.err).toContain("unknown layer 'nope'");
  });
});
