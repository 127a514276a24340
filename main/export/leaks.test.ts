/**
 * Leak tests that cannot pass by accident (issue 17): e2e/vaults/player-secrets
 * plants a unique canary in every secret position (QSECRET…: a GM note's name,
 * body and alias, a secret property, a %% comment, a [!secret] and a [!gm]
 * callout, a GM-only event's consequence, a secret relationship's target) and a
 * control canary in player-visible places (QCONTROL…), and an event at session
 * 3 reveals a GM note and a secret property (QREVEAL…). For every export format,
 * at every session: no secret canary for players and every control canary; the
 * GM sees everything; a revealed canary is absent before session 3 and present
 * from it on. The files are read by the real loader (files-only model).
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { fileURLToPath } from 'node:url';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadVaultModel } from '../sync/load-model.js';
import { timelineInputFromModel } from '../timeline/service.js';
import type { TimelineInput } from '../timeline/compile.js';
import { EXPORT_FORMATS, exportWorld, writeExport, type ExportFormat } from './index.js';
import { run } from '../cli/commands/export.js';

const VAULT = fileURLToPath(new URL('../../e2e/vaults/player-secrets', import.meta.url));

type Kind = 'name' | 'alias' | 'body' | 'prop' | 'event';
const SECRET: Array<[string, Kind]> = [
  ['QSECRETGMNAME', 'name'], ['QSECRETGMBODY', 'body'], ['QSECRETALIAS', 'alias'], ['QSECRETPROP', 'prop'],
  ['QSECRETCOMMENT', 'body'], ['QSECRETCALLOUT', 'body'], ['QSECRETGMCALLOUT', 'body'], ['QSECRETGMEVENT', 'prop'],
  ['QSECRETTARGET', 'name'],
];
const CONTROL: Array<[string, Kind]> = [
  ['QCONTROLNAME', 'name'], ['QCONTROLBODY', 'body'], ['QCONTROLALIAS', 'alias'], ['QCONTROLPROP', 'prop'], ['QCONTROLEVENT', 'prop'],
];
const REVEALED: Array<[string, Kind]> = [['QREVEALNOTE', 'name'], ['QREVEALPROP', 'prop']];

/** what each format carries: diagrams show names only; the rest show names, aliases, bodies and properties */
const carries = (f: ExportFormat, k: Kind) => (f === 'mermaid' || f === 'dot' ? k === 'name' : true);

let input: TimelineInput;
beforeAll(async () => {
  const v = await loadVaultModel(VAULT);
  input = timelineInputFromModel(v.model, v.vaultDir);
});

const text = (format: ExportFormat, audience: 'gm' | 'players', session: number | null) =>
  exportWorld(input, { format, audience, layer: 'campaign', session }).files.map((f) => f.content).join('\n').toLowerCase();
const has = (t: string, canary: string) => t.includes(canary.toLowerCase());

describe.each(EXPORT_FORMATS.map((f) => [f]))('export --format %s', (format) => {
  it.each([[1], [2], [3], [null]])('players at session %s: no secret canary, every control canary', (session) => {
    const t = text(format, 'players', session);
    for (const [c, k] of SECRET) if (carries(format, k)) expect(has(t, c), `${c} leaked`).toBe(false);
    for (const [c, k] of CONTROL) if (carries(format, k)) expect(has(t, c), `${c} missing`).toBe(true);
  });

  it('focused on what players see (--focus --depth 3): no secret canary; focused on a hidden note or alias: refused, naming only what was asked', () => {
    for (const focus of ['Mira Vell', 'Lantern Guild', 'Tam QCONTROLNAME']) {
      const t = exportWorld(input, { format, audience: 'players', layer: 'campaign', session: 2, focus, depth: 3 }).files.map((f) => f.content).join('\n').toLowerCase();
      for (const [c, k] of SECRET) if (carries(format, k)) expect(has(t, c), `${c} leaked around ${focus}`).toBe(false);
    }
    for (const focus of ['The QSECRETGMNAME Cabal', 'QSECRETALIAS']) {
      let said = '';
      try { exportWorld(input, { format, audience: 'players', layer: 'campaign', session: 2, focus, depth: 3 }); } catch (e) { said = String(e); }
      // the diagrams refuse a focus players cannot see; the other formats ignore the focus
      if (format === 'mermaid' || format === 'dot') expect(said).toMatch(/no entity of that name/);
      for (const [c] of SECRET) expect(has(said.split(focus).join(' '), c), `${c} in the refusal`).toBe(false);
    }
  });

  it('a revealed secret is absent before its session and present from it on', () => {
    for (const [c, k] of REVEALED) {
      if (!carries(format, k)) continue;
      expect(has(text(format, 'players', 1), c), `${c} before its reveal`).toBe(false);
      expect(has(text(format, 'players', 2), c), `${c} before its reveal`).toBe(false);
      expect(has(text(format, 'players', 3), c), `${c} at its reveal`).toBe(true);
      expect(has(text(format, 'players', null), c), `${c} after its reveal`).toBe(true);
    }
  });

  it('the GM sees every canary', () => {
    const t = text(format, 'gm', null);
    for (const [c, k] of [...SECRET, ...CONTROL, ...REVEALED]) {
      // the comment and callouts are in a body: the diagram formats carry no bodies; the secret target is a placeholder name
      if (carries(format, k)) expect(has(t, c), `${c} missing for the GM`).toBe(true);
    }
  });
});

describe('the players view of the world', () => {
  it('a GM-only event never happened for players: its consequence is not applied, its note is not listed', async () => {
    const { worldAt } = await import('../visibility/world.js');
    const gm = worldAt(input, { audience: 'gm', layer: 'campaign', session: 2 });
    const pl = worldAt(input, { audience: 'players', layer: 'campaign', session: 2 });
    expect(gm.entities.find((e) => e.name === 'Lantern Guild')!.properties.leader).toMatch(/QSECRETGMEVENT/);
    expect(pl.entities.find((e) => e.name === 'Lantern Guild')!.properties.leader).toBe('Mira Vell');
    expect(gm.events.map((e) => e.name)).toContain('02 The Cabal Moves');
    expect(pl.events.map((e) => e.name)).toEqual(['01 Arrival']);
    // a link to a GM note in a player-visible body reads "(secret)"; the public callout stays
    const mira = pl.entities.find((e) => e.name === 'Mira Vell')!;
    expect(mira.body).toContain('She fears (secret).');
    expect(mira.body).toContain('[!note] Public rumour');
    expect(pl.relationships.some((r) => r.type === 'SERVES')).toBe(false);
    expect(gm.relationships.some((r) => r.type === 'SERVES')).toBe(true);
  });
});

describe('lorecraft export (CLI)', () => {
  it('writes a players site and a lorebook; refuses bad flags with usage (exit 2) and a folder that is not a site', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'lorecraft-export-'));
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    try {
      expect(await run(['--vault', VAULT, '--format', 'site', '--audience', 'players', '--session', '3', '--out', path.join(out, 'site')], io)).toBe(0);
      const index = await readFile(path.join(out, 'site', 'index.html'), 'utf8');
      expect(index).toContain('as of session 3');
      expect(await run(['--vault', VAULT, '--format', 'lorebook', '--audience', 'players', '--out', path.join(out, 'lore.json')], io)).toBe(0);
      const book = JSON.parse(await readFile(path.join(out, 'lore.json'), 'utf8')) as { entries: Record<string, { key: string[]; order: number }> };
      expect(Object.values(book.entries).some((e) => e.key.includes('QCONTROLALIAS'))).toBe(true);
      expect(await run(['--vault', VAULT, '--format', 'pdf', '--audience', 'players', '--out', out], io)).toBe(2);
      expect(lines.join('\n')).toContain("--format must be one of site, lorebook, json, mermaid, dot (got 'pdf')");
      expect(await run(['--vault', VAULT, '--format', 'json', '--audience', 'everyone', '--out', out], io)).toBe(2);
      expect(await run(['--vault', VAULT, '--format', 'json', '--audience', 'gm', '--layer', 'nope', '--out', path.join(out, 'w.json')], io)).toBe(1);
      expect(lines.join('\n')).toContain("unknown layer 'nope'");
      // a folder that holds other files is never written into
      await expect(writeExport(exportWorld(input, { format: 'site', audience: 'gm' }), VAULT)).rejects.toMatchObject({ code: 'conflict' });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
