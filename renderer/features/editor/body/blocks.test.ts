import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { getBody } from '../../../../main/edit/frontmatter.js';
import { parseBody, serialiseBody, type BodyModel, type JNode } from './blocks.js';

const THELLADE = join(import.meta.dirname, '../../../../examples/thellade/vault');

function notes(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir)) {
    if (f.startsWith('.')) continue;
    const p = join(dir, f);
    if (statSync(p).isDirectory()) notes(p, out); else if (f.endsWith('.md')) out.push(p);
  }
  return out;
}

const nodes = (m: BodyModel) => m.blocks.map((b) => structuredClone(b.node));
const offsets = (m: BodyModel) => {
  let at = m.lead.length;
  return m.blocks.map((b) => { const o = at; at += b.source.length + b.gap.length; return o; });
};
const textOf = (m: BodyModel) => m.lead + m.blocks.map((b) => b.source + b.gap).join('');

/** Append text to the last text run of a paragraph (what typing at its end does). */
function typeAtEnd(n: JNode, extra: string): JNode {
  const c = structuredClone(n);
  c.content = [...(c.content ?? []), { type: 'text', text: extra }];
  return c;
}

describe('body blocks: Thellade round trip', () => {
  const files = notes(THELLADE);

  it('covers the fixture', () => {
    expect(files.length).toBeGreaterThan(1400);
  });

  it('every note: blocks + gaps are the body; serialise without change = identical bytes', () => {
    let simple = 0;
    let opaque = 0;
    for (const f of files) {
      const body = getBody(readFileSync(f, 'utf8'));
      const m = parseBody(body);
      expect(textOf(m), f).toBe(body);
      expect(serialiseBody(m, nodes(m)), f).toBe(body);
      for (const b of m.blocks) if (b.kind === 'simple') simple++; else opaque++;
    }
    // the fixture has both kinds in quantity, or this test would prove little
    expect(simple).toBeGreaterThan(1000);
    expect(opaque).toBeGreaterThan(1000);
  });

  it('every note: changing one paragraph leaves every other byte identical', () => {
    let edited = 0;
    for (const f of files) {
      const body = getBody(readFileSync(f, 'utf8'));
      const m = parseBody(body);
      const k = m.blocks.findIndex((b) => b.kind === 'simple' && b.node.type === 'paragraph');
      if (k < 0) continue;
      const doc = nodes(m);
      doc[k] = typeAtEnd(doc[k]!, ' (edited by the GM)');
      const out = serialiseBody(m, doc);
      const at = offsets(m)[k]!;
      const src = m.blocks[k]!.source;
      expect(out, f).toBe(body.slice(0, at) + src + ' (edited by the GM)' + body.slice(at + src.length));
      edited++;
    }
    expect(edited).toBeGreaterThan(300);
  });
});

describe('body blocks: what the editor does not model stays as written', () => {
  const body = [
    '# Harbour', 'Intro line with [[Captain Varo|the captain]] and **bold** text.', '',
    '> [!note] A callout', '> with two lines', '',
    '| a | b |', '|---|---|', '| 1 | 2 |', '',
    '```dataview', 'TABLE x', '', 'FROM "y"', '```', '',
    '`INPUT[text:name]` and `=this.population` inline.', '',
    '<div class="x">html</div>', '',
    '%%', 'a comment', '', 'still comment', '%%', '',
    '![[map.png]]', '',
    '- one', '- two', '',
    'Last paragraph.',
  ].join('\n') + '\n';

  it('classifies blocks: only plain paragraphs, headings and lists are editable', () => {
    const m = parseBody(body);
    expect(m.blocks.map((b) => `${b.kind}:${b.node.type}`)).toEqual([
      'simple:heading', 'simple:paragraph', 'opaque:opaque', 'opaque:opaque', 'opaque:opaque', 'simple:paragraph',
      'opaque:opaque', 'opaque:opaque', 'opaque:opaque', 'simple:bulletList', 'simple:paragraph',
    ]);
    expect(m.blocks[1]!.node.content!.find((n) => n.type === 'wikilink')?.attrs?.['raw']).toBe('[[Captain Varo|the captain]]');
    expect(serialiseBody(m, nodes(m))).toBe(body);
  });

  it('edits, inserts and deletes touch only their own blocks', () => {
    const m = parseBody(body);
    // change the paragraph right under the heading (single line ending between them)
    let doc = nodes(m);
    doc[1] = { type: 'paragraph', content: [{ type: 'text', text: 'New intro.' }] };
    expect(serialiseBody(m, doc)).toBe(body.replace('Intro line with [[Captain Varo|the captain]] and **bold** text.', 'New intro.'));
    // insert a paragraph after the list
    doc = nodes(m);
    doc.splice(10, 0, { type: 'paragraph', content: [{ type: 'text', text: 'Inserted.' }] });
    expect(serialiseBody(m, doc)).toBe(body.replace('- two\n\n', '- two\n\nInserted.\n\n'));
    // delete the last paragraph: the tail line ending stays
    doc = nodes(m).slice(0, -1);
    expect(serialiseBody(m, doc)).toBe(body.replace('\n\nLast paragraph.\n', '\n'));
    // a new paragraph between the heading and the intro gets blank lines, not glued to either
    doc = nodes(m);
    doc.splice(1, 0, { type: 'paragraph', content: [{ type: 'text', text: 'Between.' }] });
    expect(serialiseBody(m, doc)).toBe(body.replace('# Harbour\n', '# Harbour\n\nBetween.\n\n'));
  });

  it('keeps CRLF line endings, a missing final newline and leading blank lines', () => {
    const crlf = '\r\n\r\nFirst para\r\nsecond line\r\n\r\n> [!quote]\r\n> q\r\n\r\nEnd';
    const m = parseBody(crlf);
    expect(m.eol).toBe('\r\n');
    expect(serialiseBody(m, nodes(m))).toBe(crlf);
    const doc = nodes(m);
    doc[2] = { type: 'paragraph', content: [{ type: 'text', text: 'The end' }, { type: 'hardBreak' }, { type: 'text', text: 'really' }] };
    expect(serialiseBody(m, doc)).toBe('\r\n\r\nFirst para\r\nsecond line\r\n\r\n> [!quote]\r\n> q\r\n\r\nThe end\r\nreally');
  });

  it('an empty body takes typed text; marks and links serialise as markdown', () => {
    const m = parseBody('');
    expect(serialiseBody(m, [])).toBe('');
    const doc: JNode[] = [{ type: 'paragraph', content: [
      { type: 'text', text: 'See ' }, { type: 'wikilink', attrs: { raw: '[[Oldmere]]' } },
      { type: 'text', text: ' and ' }, { type: 'text', text: 'this', marks: [{ type: 'bold' }] }, { type: 'text', text: '.' },
    ] }];
    expect(serialiseBody(m, doc)).toBe('See [[Oldmere]] and **this**.\n\n'.trimEnd());
    const parsed = parseBody('See [[Oldmere]] and **this**, *that* ~~gone~~ `code`.\n');
    expect(parsed.blocks[0]!.kind).toBe('simple');
  });
});
