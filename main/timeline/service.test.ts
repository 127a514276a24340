/**
 * createTimeline over a real core (openCore: Kùzu store + sync engine) on a
 * temp copy of the sample world: answers, then a file change on disk is seen
 * after the engine applies it (the index is rebuilt on the ChangeEvent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCore, type CoreHost } from '../core/index.js';
import { createTimeline, type TimelineService } from './service.js';

const SAMPLE = fileURLToPath(new URL('../../resources/sample-world', import.meta.url));
let dir: string;
let host: CoreHost;
let tl: TimelineService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lorecraft-timeline-'));
  await cp(SAMPLE, dir, { recursive: true });
  host = await openCore({ vaultDir: dir });
  tl = createTimeline(host);
});
afterAll(async () => {
  tl?.close();
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('createTimeline(host)', () => {
  it('answers from the live model', () => {
    expect(tl.layers()).toEqual(['setting', 'campaign']);
    expect(tl.sessions('campaign').length).toBeGreaterThan(3);
    expect(tl.stateAt('Captain Varo', 'campaign', 5)!.dead).toBe(true);
    expect(tl.problems()).toEqual([]);
    const facts = tl.facts();
    expect(facts.campaignLayers()).toEqual(['campaign']);
    expect(facts.stateAt('campaign', 5).entities.find((e) => e.id === 'setting/captain varo')!.dead).toBe(true);
  });

  it('rebuilds after a change: a new consequence and a bad one with its line', async () => {
    const rel = 'campaign/sessions/10 Oldmere Rises.md';
    const file = path.join(dir, rel);
    const text = await readFile(file, 'utf8');
    const edited = text.replace('consequences:\n', 'consequences:\n  - { entity: Grell Ironjaw, property: role, value: lord of Oldmere }\n  - { entity: Nobody At All, destroyed: true }\n');
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    const before = tl.index();
    await host.engine.applyPaths([rel], 'disk');
    expect(tl.index()).not.toBe(before);
    const grell = tl.stateAt('Grell Ironjaw', 'campaign', 5)!;
    expect(grell.properties.role).toBe('lord of Oldmere');
    expect(grell.provenance.role).toMatchObject({ name: 'Oldmere Rises', path: rel });
    const line = edited.split('\n').findIndex((l) => l.includes('Nobody At All')) + 1;
    expect(tl.problems()).toEqual([expect.objectContaining({ code: 'event-unknown-entity', file: rel, line, field: 'consequences' })]);
    expect(tl.stateAt('Grell Ironjaw', 'campaign', 4)!.properties.role).not.toBe('lord of Oldmere');
    // an unchanged event file keeps exact consequence lines (served from the line cache)
    const varo = tl.stateAt('Captain Varo', 'campaign')!.provenance.status!;
    const varoText = await readFile(path.join(dir, varo.path), 'utf8');
    expect(varoText.split('\n')[varo.line - 1]).toContain('property: status, value: dead');
  });
});
