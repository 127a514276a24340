/**
 * The editor's own schema must take the body model's nodes as they are: every
 * Thellade note's document, through ProseMirror (what Tiptap does on load), has
 * the same top-level nodes with the same keys — so the baseline maps one to one
 * onto the blocks and an untouched note serialises to its exact bytes.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { getSchema } from '@tiptap/core';
import { Node as PMNode } from '@tiptap/pm/model';
import { getBody } from '../../../../main/edit/frontmatter.js';
import { nodeKey, parseBody, serialiseBody, type JNode } from '../body/blocks.js';
import { proseExtensions } from './nodes.js';

const THELLADE = join(import.meta.dirname, '../../../../examples/thellade/vault');
function notes(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir)) {
    if (f.startsWith('.')) continue;
    const p = join(dir, f);
    if (statSync(p).isDirectory()) notes(p, out); else if (f.endsWith('.md')) out.push(p);
  }
  return out;
}

describe('prose schema', () => {
  const schema = getSchema(proseExtensions());

  it('loads every Thellade body unchanged (same top-level keys) and serialises it to the same bytes', () => {
    let n = 0;
    for (const f of notes(THELLADE)) {
      const body = getBody(readFileSync(f, 'utf8'));
      const m = parseBody(body);
      const doc = PMNode.fromJSON(schema, { type: 'doc', content: m.blocks.length ? m.blocks.map((b) => b.node) : [{ type: 'paragraph' }] });
      doc.check();
      const loaded = (doc.toJSON() as { content: JNode[] }).content.filter((x) => !(x.type === 'paragraph' && !x.content?.length));
      expect(loaded.map(nodeKey), f).toEqual(m.blocks.map((b) => nodeKey(b.node)));
      expect(serialiseBody(m, loaded, loaded), f).toBe(body);
      n++;
    }
    expect(n).toBeGreaterThan(1400);
  });

  it('a document typed in the editor serialises through the same schema', () => {
    const doc = PMNode.fromJSON(schema, { type: 'doc', content: [
      { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Allies' }] },
      { type: 'orderedList', attrs: { start: 1 }, content: [
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'wikilink', attrs: { raw: '[[Iron Guild]]' } }] }] },
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'the ' }, { type: 'text', text: 'Wardens', marks: [{ type: 'italic' }] }] }] },
      ] },
    ] });
    const nodes = (doc.toJSON() as { content: JNode[] }).content;
    expect(serialiseBody(parseBody(''), nodes, [])).toBe('## Allies\n\n1. [[Iron Guild]]\n2. the *Wardens*');
  });
});
