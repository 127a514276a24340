/**
 * `--format site`: a static HTML wiki of the world at a session, for the
 * audience: one page per entity (properties, prose, relationships both ways,
 * a picture of its neighbourhood, the events it took part in), an index with a
 * picture of the whole world, a page per type and per tag, and a search box.
 * It opens from the file system with no server: relative links only, the search
 * index is a script (`search-index.js`), no fetch, no external resource. Prose
 * is read as the app reads it (shared/markdown.ts) with raw HTML escaped (never executed).
 */
import { createHash } from 'node:crypto';
import type MarkdownIt from 'markdown-it';
import { obsidianMarkdown } from '../../shared/markdown.js';
import { LINK_REL } from '../../shared/types.js';
import { parseLink } from '../../shared/wikilinks.js';
import type { WorldEntity, WorldView } from '../visibility/world.js';
import { byImportance, importance } from './importance.js';
import { WorldNames } from './resolve.js';
import { plainText, summaryOf } from './summary.js';
import { forceLayout, radialLayout, svgGraph } from './svg.js';

export interface SiteFile { path: string; content: string }

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function slug(text: string): string {
  const base = text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'x';
  return `${base}-${createHash('sha1').update(text).digest('hex').slice(0, 6)}`;
}

export function site(view: WorldView): SiteFile[] {
  const rank = importance(view);
  const names = new WorldNames(view.entities);
  const byId = new Map(view.entities.map((e) => [e.id, e]));
  const pageOf = (e: WorldEntity) => `entity/${slug(e.id)}.html`;
  const files: SiteFile[] = [];
  const who = view.audience === 'gm' ? 'GM' : 'players';
  const when = view.session !== null ? ` · as of session ${view.session}` : '';

  const page = (title: string, depth: number, main: string): string => {
    const up = depth ? '../'.repeat(depth) : '';
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self' file:; script-src 'self' file:; img-src 'self' file: data:">
<title>${esc(title)} — ${esc(view.project)}</title><link rel="stylesheet" href="${up}style.css"></head><body>
<header><a class="home" href="${up}index.html">${esc(view.project)}</a><span class="who">for the ${who}${esc(when)}</span>
<form class="search" role="search"><input id="q" type="search" placeholder="Search the world…" autocomplete="off" aria-label="Search"><ol id="results"></ol></form></header>
<main>${main}</main>
<script src="${up}search-index.js"></script><script src="${up}search.js" data-root="${up}"></script></body></html>\n`;
  };

  // prose: links to pages of entities the audience sees, the rest as plain text; raw HTML escaped
  const proseMd = new Map<number, MarkdownIt>();
  const prose = (markdown: string, depth: number): string => {
    let md = proseMd.get(depth);
    if (!md) {
      const up = '../'.repeat(depth);
      md = obsidianMarkdown({
        html: false,
        wikilink: (inner) => {
          const link = parseLink(inner);
          const label = esc(link?.label ?? link?.name ?? inner);
          const target = link ? names.resolve(link.target) ?? names.resolve(link.name) : undefined;
          return target && !target.placeholder ? `<a href="${up}${pageOf(target)}">${label}</a>` : label;
        },
        embed: () => '',
        tag: (t) => `<span class="tag">#${esc(t)}</span>`,
      });
      proseMd.set(depth, md);
    }
    return md.render(markdown);
  };
  const valueHtml = (v: unknown, depth: number): string => {
    if (Array.isArray(v)) return v.map((x) => valueHtml(x, depth)).join(', ');
    if (v !== null && typeof v === 'object') return esc(JSON.stringify(v));
    return prose(String(v), depth).replace(/^<p>|<\/p>\n?$/g, '');
  };
  const entityLink = (e: WorldEntity, up: string) => (e.placeholder ? `<span class="ph">${esc(e.name)}</span>` : `<a href="${up}${pageOf(e)}">${esc(e.name)}</a>`);

  // relationships both ways, typed first, body links last
  const relsOf = new Map<string, Array<{ label: string; other: WorldEntity; link: boolean }>>();
  const push = (id: string, label: string, other: WorldEntity | undefined, link: boolean) => {
    if (!other) return;
    relsOf.set(id, [...(relsOf.get(id) ?? []), { label, other, link }]);
  };
  for (const r of view.relationships) {
    const link = r.type === LINK_REL;
    push(r.from, link ? 'mentions' : r.type, byId.get(r.to), link);
    push(r.to, link ? 'mentioned by' : `← ${r.type}`, byId.get(r.from), link);
  }
  const eventsOf = new Map<string, WorldView['events']>();
  for (const ev of view.events) {
    const involved = new Set([ev.id, ...[...ev.participants, ...(ev.location ? [ev.location] : [])].map((n) => names.resolve(n)?.id).filter((x): x is string => !!x)]);
    for (const id of involved) eventsOf.set(id, [...(eventsOf.get(id) ?? []), ev]);
  }

  for (const e of view.entities) {
    if (e.placeholder) continue;
    const up = '../';
    const props = Object.entries(e.properties);
    const rels = (relsOf.get(e.id) ?? []).sort((a, b) => Number(a.link) - Number(b.link) || a.label.localeCompare(b.label) || a.other.name.localeCompare(b.other.name));
    const neighbours = [...new Set(rels.map((r) => r.other.id))].slice(0, 24);
    const pic = svgGraph(radialLayout(e.id, neighbours), [e, ...neighbours.map((id) => byId.get(id)!)],
      view.relationships.filter((r) => (r.from === e.id && neighbours.includes(r.to)) || (r.to === e.id && neighbours.includes(r.from))),
      (x) => (x.placeholder ? null : `${up}${pageOf(x)}`), e.id);
    const evs = eventsOf.get(e.id) ?? [];
    files.push({
      path: pageOf(e),
      content: page(e.name, 1, `<article><h1 class="title">${esc(e.name)}</h1>
<p class="meta">${e.type ? `<a class="type" href="${up}types/${slug(e.type)}.html">${esc(e.type)}</a>` : '<span class="type">untyped</span>'}${e.dead ? ' <span class="state">dead</span>' : e.lifecycle === 'destroyed' ? ' <span class="state">destroyed</span>' : ''}
${e.tags.map((t) => `<a class="tag" href="${up}tags/${slug(t)}.html">#${esc(t)}</a>`).join(' ')}</p>
${e.aliases.length ? `<p class="aliases">Also known as ${e.aliases.map(esc).join(', ')}</p>` : ''}
${props.length ? `<table class="props">${props.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${valueHtml(v, 1)}</td></tr>`).join('')}</table>` : ''}
<section class="prose">${prose(e.body, 1)}</section>
${rels.length ? `<section><h2>Relationships</h2><ul class="rels">${rels.map((r) => `<li><span class="rel">${esc(r.label)}</span> ${entityLink(r.other, up)}</li>`).join('')}</ul></section>` : ''}
${neighbours.length ? `<figure class="graph">${pic}<figcaption>${esc(e.name)} and its neighbours</figcaption></figure>` : ''}
${evs.length ? `<section><h2>Events</h2><ul>${evs.map((ev) => `<li>${ev.session !== null ? `Session ${ev.session}` : 'Unscheduled'}${ev.date ? ` · ${esc(ev.date)}` : ''}: ${byId.get(ev.id) ? entityLink(byId.get(ev.id)!, up) : esc(ev.name)}${ev.consequences.length ? `<ul>${ev.consequences.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>` : ''}</li>`).join('')}</ul></section>` : ''}
</article>`),
    });
  }

  // index: the whole world's most important entities in one picture, then every entity by type
  const top = byImportance(view.entities.filter((e) => !e.placeholder), rank).slice(0, 80);
  const topIds = new Set(top.map((e) => e.id));
  const overview = svgGraph(forceLayout(top.map((e) => e.id), view.relationships.filter((r) => topIds.has(r.from) && topIds.has(r.to))), top,
    view.relationships.filter((r) => topIds.has(r.from) && topIds.has(r.to)), (x) => pageOf(x), null);
  const types = new Map<string, WorldEntity[]>();
  const tags = new Map<string, WorldEntity[]>();
  for (const e of view.entities) {
    if (e.placeholder) continue;
    const t = e.type ?? 'untyped';
    types.set(t, [...(types.get(t) ?? []), e]);
    for (const tag of e.tags) tags.set(tag, [...(tags.get(tag) ?? []), e]);
  }
  const list = (items: WorldEntity[], up: string) => `<ul class="list">${items.map((e) => `<li>${entityLink(e, up)} <span class="sum">${esc(summaryOf(e, 140))}</span></li>`).join('')}</ul>`;
  files.push({
    path: 'index.html',
    content: page(view.project, 0, `<h1 class="title">${esc(view.project)}</h1>
<p class="meta">${view.entities.filter((e) => !e.placeholder).length} entries · layer ${esc(view.layer)}${esc(when)} · <a href="tags/index.html">tags</a></p>
${top.length ? `<figure class="graph overview">${overview}<figcaption>The ${top.length} most connected entries</figcaption></figure>` : ''}
${[...types].sort(([a], [b]) => a.localeCompare(b)).map(([t, items]) => `<section><h2><a href="types/${slug(t)}.html">${esc(t)}</a> <span class="count">${items.length}</span></h2>${list(items, '')}</section>`).join('\n')}
${view.events.length ? `<section><h2>Timeline</h2><ol class="events">${view.events.map((ev) => `<li>${ev.session !== null ? `Session ${ev.session}` : 'Unscheduled'}${ev.date ? ` · ${esc(ev.date)}` : ''}: ${byId.get(ev.id) && !byId.get(ev.id)!.placeholder ? entityLink(byId.get(ev.id)!, '') : esc(ev.name)}</li>`).join('')}</ol></section>` : ''}`),
  });
  for (const [t, items] of types) files.push({ path: `types/${slug(t)}.html`, content: page(t, 1, `<h1>${esc(t)}</h1>${list(items, '../')}`) });
  for (const [t, items] of tags) files.push({ path: `tags/${slug(t)}.html`, content: page(`#${t}`, 1, `<h1>#${esc(t)}</h1>${list(items, '../')}`) });
  files.push({
    path: 'tags/index.html',
    content: page('Tags', 1, `<h1>Tags</h1><ul class="tags">${[...tags].sort(([a], [b]) => a.localeCompare(b)).map(([t, items]) => `<li><a class="tag" href="${slug(t)}.html">#${esc(t)}</a> <span class="count">${items.length}</span></li>`).join('')}</ul>`),
  });

  const index = view.entities.filter((e) => !e.placeholder).map((e) => ({
    n: e.name, a: e.aliases, t: e.type ?? '', g: e.tags, s: summaryOf(e, 160), p: pageOf(e), x: plainText(e.body).slice(0, 2000).toLowerCase(),
  }));
  files.push({ path: 'search-index.js', content: `window.LORE_INDEX = ${JSON.stringify(index).replace(/</g, '\\u003c')};\n` });
  files.push({ path: 'search.js', content: SEARCH_JS });
  files.push({ path: 'style.css', content: STYLE_CSS });
  return files;
}

/** Client-side search: names and aliases first (exact, then prefix, then contains), then tags, then text. */
const SEARCH_JS = `(function () {
  var root = document.currentScript.getAttribute('data-root') || '';
  var q = document.getElementById('q'), out = document.getElementById('results');
  if (!q || !out) return;
  function score(e, w) {
    var names = [e.n].concat(e.a).map(function (s) { return s.toLowerCase(); });
    if (names.indexOf(w) >= 0) return 100;
    if (names.some(function (s) { return s.indexOf(w) === 0; })) return 80;
    if (names.some(function (s) { return s.indexOf(w) >= 0; })) return 60;
    if (e.g.some(function (t) { return t.toLowerCase() === w; })) return 40;
    if (e.t.toLowerCase() === w) return 30;
    if (e.x.indexOf(w) >= 0 || e.s.toLowerCase().indexOf(w) >= 0) return 10;
    return 0;
  }
  function run() {
    var w = q.value.trim().toLowerCase();
    out.textContent = '';
    if (!w) return;
    var hits = (window.LORE_INDEX || []).map(function (e) { return { e: e, s: score(e, w) }; })
      .filter(function (h) { return h.s > 0; }).sort(function (a, b) { return b.s - a.s || a.e.n.localeCompare(b.e.n); }).slice(0, 12);
    hits.forEach(function (h) {
      var li = document.createElement('li'), a = document.createElement('a');
      a.href = root + h.e.p; a.textContent = h.e.n;
      var s = document.createElement('span'); s.className = 'sum'; s.textContent = ' ' + h.e.s;
      li.appendChild(a); li.appendChild(s); out.appendChild(li);
    });
    if (!hits.length) { var li = document.createElement('li'); li.textContent = 'Nothing found'; out.appendChild(li); }
  }
  q.addEventListener('input', run);
  q.form.addEventListener('submit', function (ev) { ev.preventDefault(); var a = out.querySelector('a'); if (a) location.href = a.href; });
})();
`;

const STYLE_CSS = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222;background:#fbfaf7}
header{display:flex;gap:1em;align-items:center;padding:.6em 1.2em;background:#2b2d42;color:#eee;flex-wrap:wrap}
header a{color:#fff;text-decoration:none;font-weight:600}.who{opacity:.8;font-size:.9em}
.search{margin-left:auto;position:relative}#q{padding:.35em .6em;border-radius:4px;border:0;min-width:16em}
#results{position:absolute;right:0;background:#fff;color:#222;list-style:none;margin:.2em 0;padding:0;min-width:22em;box-shadow:0 4px 12px #0003;z-index:2}
#results li{padding:.3em .6em}#results a{color:#1d3557;font-weight:600}
main{max-width:60em;margin:0 auto;padding:1em 1.2em}a{color:#1d3557}
.meta .type,.tag{display:inline-block;padding:0 .4em;border-radius:3px;background:#e9e4d8;text-decoration:none;margin-right:.3em}
.state{color:#a4161a;font-weight:600}.props th{text-align:left;padding-right:1em;color:#555;vertical-align:top}
.rels{columns:2}.rel{color:#666;font-size:.9em}.ph{color:#777;font-style:italic}.sum{color:#666;font-size:.9em}
.count{color:#888;font-size:.8em}figure.graph{margin:1em 0;max-width:520px;background:#fff;border:1px solid #e4e0d6;border-radius:6px}
figure.graph svg{width:100%;height:auto;display:block}figure.overview{max-width:none}figcaption{font-size:.85em;color:#666;padding:.3em .6em}
svg text{font:11px system-ui,sans-serif;fill:#222}svg line{stroke:#9aa;stroke-width:1}svg circle{fill:#457b9d}svg .focus circle{fill:#e63946}
`;
