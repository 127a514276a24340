/**
 * The committed Thellade example schema against the real fixture vault (read-only:
 * nothing is written to it). Prints the counts the issue asks for.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
import { loadVaultConfig } from './load.js';
import { compileSchema } from './schema-index.js';
import { validateProperties } from './validate.js';
import { parseNote, fieldRefs } from '../parse/parse.js';

const ROOT = join(import.meta.dirname, '../..');
const VAULT = join(ROOT, 'examples/thellade/vault');
const EXAMPLE = join(ROOT, 'examples/thellade');

function mdFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) mdFiles(p, out);
    else if (e.name.toLowerCase().endsWith('.md')) out.push(p);
  }
  return out;
}

describe('examples/thellade against the fixture', () => {
  const loaded = loadVaultConfig(VAULT, { configPath: join(EXAMPLE, 'lorecraft.yaml'), schemaPath: join(EXAMPLE, 'schema.yaml') });

  it('loads with no problems at all', () => {
    expect(loaded.problems).toEqual([]);
    expect(loaded.config.layers.map((l) => l.name)).toEqual(['world', 'group-1', 'group-2', 'group-3', 'group-4', 'group-6']);
    expect(loaded.schema.events).toMatchObject({ type: 'session', session_field: 'sessionnumber', date_field: 'in_game_start', participants_field: 'present' });
    // every layer path exists in the vault
    for (const l of loaded.config.layers) for (const p of l.paths) expect(existsSync(join(VAULT, p)), p).toBe(true);
  });

  it('parses every note without throwing, types most of them, and validates cleanly', () => {
    const ix = compileSchema(loaded.schema);
    const excluded = picomatch(loaded.config.exclude, { dot: true });
    const files = mdFiles(VAULT).map((f) => relative(VAULT, f).split('\\').join('/')).filter((p) => !excluded(p));
    const byType: Record<string, number> = {};
    let bodyLinks = 0, fieldLinks = 0, refs = 0, parseProblems = 0, untyped = 0;
    const propProblems: string[] = [];
    for (const path of files) {
      const n = parseNote(path, readFileSync(join(VAULT, path)), { titleField: ix.titleField });
      parseProblems += n.problems.length;
      bodyLinks += n.bodyLinks.length;
      fieldLinks += n.fieldLinks.length;
      const t = ix.resolveType(n);
      if (t === null) untyped++; else byType[t] = (byType[t] ?? 0) + 1;
      for (const m of ix.mappings(t)) refs += fieldRefs(n, m.field).length;
      for (const p of validateProperties(n, t, ix)) if (p.severity === 'error') propProblems.push(`${p.file}:${p.line} ${p.message}`);
    }
    console.log(JSON.stringify({ notes: files.length, untyped, byType, bodyLinks, fieldLinks, relationshipRefs: refs, parseProblems, propertyErrors: propProblems.length }));
    expect(files.length).toBeGreaterThan(1400);
    expect(parseProblems).toBe(0);
    expect(propProblems).toEqual([]);
    expect(untyped).toBeLessThan(20);
    expect(byType).toMatchObject({ npc: 325, settlement: 207, poi: 365, session: 13, religion: 70 });
    expect(refs).toBeGreaterThan(7000);
  });
});
