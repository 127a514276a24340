/**
 * A real-shaped vault, as GMs bring them from Obsidian (issue 15 point 6): no
 * schema.yaml and no lorecraft.yaml, folders as types (Characters/,
 * World/Places/, World/Organizations/…), a `_templates` folder, long-tailed
 * note sizes (median ~2 KB, a few hundred over 50 KB, a handful near 1 MB),
 * 10–40 frontmatter keys with nested lists and link-valued keys, many tags,
 * callouts, embeds (`![[Note]]`, `![[map.png|250]]`), inline #tags.
 * Deterministic for a seed. At the default 7,000 notes: ~30 MB.
 *
 *   node bin/run-ts.mjs bench/generate.ts --real --out DIR [--entities N] [--seed S]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prng } from '../shared/prng.js';
import type { GeneratedVault } from './generate.js';

export interface RealShapedOptions {
  /** notes (templates not counted); default 7000 */
  notes?: number;
  seed?: number;
}

const FOLDERS = [
  { folder: 'Characters', share: 0.34, tag: 'character' },
  { folder: 'World/Places', share: 0.22, tag: 'place' },
  { folder: 'World/Organizations', share: 0.1, tag: 'organization' },
  { folder: 'Items', share: 0.1, tag: 'item' },
  { folder: 'Lore/History', share: 0.08, tag: 'history' },
  { folder: 'Sessions', share: 0.08, tag: 'session' },
  { folder: 'Bestiary', share: 0.08, tag: 'creature' },
] as const;
const SYL = ['ar', 'bel', 'cor', 'dun', 'el', 'fen', 'gar', 'hal', 'ith', 'jor', 'kel', 'lor', 'mar', 'nor', 'or', 'pel', 'quin', 'ras', 'sil', 'tor', 'ul', 'vor', 'wen', 'yth', 'zan', 'bri', 'cal', 'dra', 'ely', 'fa'];
const WORDS = ('the old road winds past a ruined tower where travellers tell of lights at night and a merchant who sells maps ' +
  'that lead nowhere rumours speak of a debt owed to the guild and a vow sworn under the red moon the harbour smells of tar ' +
  'and salt while priests argue about omens in the square a storm is coming from the west and the harvest was poor this year').split(' ');
const TAGS = ['CotF', 'RD', 'status/active', 'status/dead', 'region/north', 'region/south', 'arc/one', 'arc/two', 'secret', 'plot', 'todo', 'homebrew', 'canon', 'draft', 'pc', 'npc', 'villain', 'faction/crown', 'faction/church', 'era/first'];
const CALLOUTS = ['note', 'info', 'warning', 'quote', 'tip', 'bug', 'example', 'secret'];

/** Target body size in bytes: long-tailed (see the file's doc comment). */
function sizeFor(i: number, n: number, rnd: () => number): number {
  const huge = Math.max(1, Math.round(n / 1400)); // 5 at 7k
  const big = Math.round(n * 0.026); // ~180 at 7k
  if (i < huge) return 800_000 + Math.floor(rnd() * 250_000);
  if (i < huge + big) return 50_000 + Math.floor(-Math.log(1 - rnd()) * 12_000);
  // log-normal, median ~1 KB of prose (+ frontmatter: ~2 KB a note), capped at 40 KB
  const z = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  return Math.min(40_000, Math.round(1_000 * Math.exp(0.6 * z)));
}

export async function generateRealVault(dir: string, opts: RealShapedOptions = {}): Promise<GeneratedVault> {
  const rnd = prng(opts.seed ?? 3);
  const n = Math.max(10, Math.floor(opts.notes ?? 7000));
  const pick = <T>(l: readonly T[]): T => l[Math.floor(rnd() * l.length)]!;
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const word = () => cap(Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(SYL)).join(''));
  const used = new Set<string>();
  const names: string[] = [];
  const folders: string[] = [];
  for (let i = 0; i < n; i++) {
    let r = rnd();
    let f: (typeof FOLDERS)[number] = FOLDERS[0];
    for (const c of FOLDERS) { if (r < c.share) { f = c; break; } r -= c.share; }
    let name = '';
    for (let t = 0; !name || used.has(name.toLowerCase()); t++) name = `${word()} ${word()}${t > 5 ? ` ${i}` : ''}`;
    used.add(name.toLowerCase());
    names.push(name);
    folders.push(f.folder);
  }
  // ~6% of notes' worth of names no note has (a real 7k vault: ~430 placeholders)
  const missing = Array.from({ length: Math.ceil(n * 0.06) }, () => `${word()} ${pick(['Tower', 'Inn', 'Pass', 'Shrine'])}`);
  const link = () => (rnd() < 0.03 ? pick(missing) : pick(names));
  const prose = (bytes: number): string => {
    const out: string[] = [];
    let len = 0;
    while (len < bytes) {
      const r = rnd();
      let block: string;
      if (r < 0.08) {
        block = `> [!${pick(CALLOUTS)}]${rnd() < 0.3 ? pick(['+', '-']) : ''} ${cap(pick(WORDS))} ${pick(WORDS)}\n> ${Array.from({ length: 20 }, () => pick(WORDS)).join(' ')} [[${link()}]].`;
      } else if (r < 0.11) {
        block = rnd() < 0.5 ? `![[${link()}]]` : `![[${pick(['map', 'portrait', 'sigil'])}-${Math.floor(rnd() * 40)}.png|250]]`;
      } else if (r < 0.15) {
        block = `## ${cap(pick(WORDS))} ${pick(WORDS)}`;
      } else if (r < 0.2) {
        block = Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => `- ${pick(WORDS)} ${pick(WORDS)} [[${link()}]]`).join('\n');
      } else {
        const ws: string[] = [];
        const m = 40 + Math.floor(rnd() * 60);
        for (let w = 0; w < m; w++) {
          ws.push(pick(WORDS));
          if (rnd() < 0.01) ws.push(`[[${link()}${rnd() < 0.2 ? `|${pick(WORDS)}` : ''}]]`);
          if (rnd() < 0.005) ws.push(`#${pick(TAGS)}`);
        }
        block = cap(ws.join(' ')) + '.';
      }
      out.push(block);
      len += block.length + 2;
    }
    return out.join('\n\n');
  };
  const frontmatter = (i: number): string => {
    const keys = 10 + Math.floor(rnd() * 31);
    const lines = [`aliases: [${rnd() < 0.3 ? `"${pick(['Old', 'Red', 'Lord'])} ${names[i]!.split(' ')[0]}"` : ''}]`];
    const tags = Array.from({ length: 2 + Math.floor(rnd() * 8) }, () => pick(TAGS));
    lines.push(rnd() < 0.2 ? `tags: ${tags.slice(0, 2).join(', ')}` : `tags:\n${[...new Set(tags)].map((t) => `  - ${t}`).join('\n')}`);
    for (let k = 2; k < keys; k++) {
      const r = rnd();
      const key = `${pick(['home', 'ally', 'rival', 'mentor', 'origin', 'patron', 'race', 'class', 'level', 'age', 'alive', 'born', 'rank', 'status', 'notes', 'source'])}_${k}`;
      if (r < 0.25) lines.push(`${key}: "[[${link()}]]"`);
      else if (r < 0.4) lines.push(`${key}:\n${Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => `  - "[[${link()}]]"`).join('\n')}`);
      else if (r < 0.5) lines.push(`${key}:\n  - name: ${pick(WORDS)}\n    with: "[[${link()}]]"\n    since: ${1000 + Math.floor(rnd() * 500)}\n  - name: ${pick(WORDS)}\n    tags: [${pick(TAGS)}, ${pick(TAGS)}]`);
      else if (r < 0.65) lines.push(`${key}: ${Math.floor(rnd() * 400)}`);
      else if (r < 0.75) lines.push(`${key}: ${rnd() < 0.5}`);
      else if (r < 0.85) lines.push(`${key}: ${1200 + Math.floor(rnd() * 300)}-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`);
      else lines.push(`${key}: ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`);
    }
    return lines.join('\n');
  };

  // big and huge notes first (sizeFor), spread over the folders by the shuffled order of names
  const files: Array<[string, string]> = [];
  for (let i = 0; i < n; i++) {
    files.push([`${folders[i]}/${names[i]}.md`, `---\n${frontmatter(i)}\n---\n# ${names[i]}\n\n${prose(sizeFor(i, n, rnd))}\n`]);
  }
  for (const t of ['Character', 'Place', 'Session', 'Item']) {
    files.push([`_templates/${t}.md`, `---\ntags: [${t.toLowerCase()}]\nhome: "[[]]"\nstatus: \n---\n# {{title}}\n\n> [!info] ${t}\n> Created {{date}}\n`]);
  }
  files.push(['README.md', '# My world\n\nNotes for the campaign. See [[Sessions]].\n']);
  for (const d of new Set(files.map(([p]) => p.slice(0, p.lastIndexOf('/'))))) if (d) await mkdir(join(dir, d), { recursive: true });
  await mkdir(join(dir, '.obsidian'), { recursive: true });
  await writeFile(join(dir, '.obsidian', 'templates.json'), '{"folder": "_templates"}\n');
  for (let i = 0; i < files.length; i += 256) {
    await Promise.all(files.slice(i, i + 256).map(([p, text]) => writeFile(join(dir, p), text)));
  }
  const paths = files.map(([p]) => p).slice(0, n);
  return { dir, files: files.length, paths, names, types: folders };
}
