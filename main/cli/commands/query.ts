/**
 * `lorecraft query <sub> ...` — every sub-command takes --vault DIR, --json,
 * --db DIR, --config FILE, --schema FILE. It opens the vault (an incremental
 * sync first, so the answer reflects the files) and answers:
 *   entity NAME [--type T] [--layer L]
 *   relations NAME [--depth 1..5] [--type T] [--direction out|in|both]
 *   list [--type T] [--layer L] [--tag T] [--placeholders] [--limit N] [--offset N]
 *   search TEXT [--type T] [--layer L] [--limit N]
 *   path FROM TO [--max-depth N]
 *   cypher "MATCH ..."            (read-only: anything that writes is refused)
 *   state | timeline | diff        (campaign time: see query-time.ts)
 * Exit: 0 ok, 1 not found / refused / errors, 2 usage.
 */
import type { EntitySummary, Traversal } from '../../../shared/types.js';
import type { CoreHost } from '../../core/index.js';
import { parseArgs, type CliIo } from '../io.js';
import type { TimeSub } from './query-time.js';
import { VAULT_FLAGS, coreOptions, openOrFail, reportError } from './common.js';

const SUBS: Record<string, { usage: string; args: number; strings: string[]; booleans?: string[] }> = {
  entity: { usage: 'query entity NAME [--type T] [--layer L]', args: 1, strings: ['type', 'layer'] },
  relations: { usage: 'query relations NAME [--depth 1..5] [--type T] [--direction out|in|both]', args: 1, strings: ['depth', 'type', 'direction'] },
  list: { usage: 'query list [--type T] [--layer L] [--tag T] [--placeholders] [--limit N] [--offset N]', args: 0, strings: ['type', 'layer', 'tag', 'limit', 'offset'], booleans: ['placeholders'] },
  search: { usage: 'query search TEXT [--type T] [--layer L] [--limit N]', args: 1, strings: ['type', 'layer', 'limit'] },
  path: { usage: 'query path FROM TO [--max-depth N]', args: 2, strings: ['max-depth'] },
  cypher: { usage: 'query cypher "MATCH ... RETURN ..."', args: 1, strings: [] },
};
const TIME_SUBS = new Set(['state', 'timeline', 'diff']);
const COMMON = '  (all: --vault DIR --json --db DIR --config FILE --schema FILE)';

function usage(io: CliIo): void {
  io.err('usage: lorecraft ' + Object.values(SUBS).map((s) => s.usage).join('\n       lorecraft '));
  io.err('       lorecraft query state|timeline|diff ... (lorecraft query state --help)');
  io.err(COMMON);
}

function intFlag(v: string | boolean | undefined, name: string, min: number, max: number, errors: string[]): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n < min || n > max) {
    errors.push(`--${name} must be an integer from ${min} to ${max} (got '${String(v)}')`);
    return undefined;
  }
  return n;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h') { usage(io); return sub ? 0 : 2; }
  if (TIME_SUBS.has(sub)) {
    const { runTime } = await import('./query-time.js');
    return runTime(sub as TimeSub, rest, io);
  }
  const spec = SUBS[sub];
  if (!spec) { io.err(`lorecraft query: unknown sub-command '${sub}'`); usage(io); return 2; }
  const { flags, positionals, errors } = parseArgs(rest, { booleans: ['json', ...(spec.booleans ?? [])], strings: [...VAULT_FLAGS, ...spec.strings] });
  if (positionals.length !== spec.args) errors.push(`expected ${spec.args} argument${spec.args === 1 ? '' : 's'}, got ${positionals.length}`);
  const depth = intFlag(flags.depth, 'depth', 1, 5, errors);
  const maxDepth = intFlag(flags['max-depth'], 'max-depth', 1, 10, errors);
  const limit = intFlag(flags.limit, 'limit', 1, 100000, errors);
  const offset = intFlag(flags.offset, 'offset', 0, 1e9, errors);
  const direction = flags.direction;
  if (direction !== undefined && direction !== 'out' && direction !== 'in' && direction !== 'both') errors.push(`--direction must be out, in or both (got '${String(direction)}')`);
  if (errors.length) { io.err(`lorecraft query ${sub}: ${errors.join('; ')}`); io.err(`usage: lorecraft ${spec.usage}`); io.err(COMMON); return 2; }

  const json = !!flags.json;
  const core = await openOrFail(coreOptions(flags), io, json);
  if (typeof core === 'number') return core;
  const str = (k: string) => (typeof flags[k] === 'string' ? (flags[k] as string) : undefined);
  const out = (v: unknown) => io.out(JSON.stringify(v, null, 2));
  try {
    const [a, b] = positionals as [string, string];
    switch (sub) {
      case 'entity': {
        const e = await core.getEntity(a, { ...(str('type') ? { type: str('type')! } : {}), ...(str('layer') ? { layer: str('layer')! } : {}) });
        if (!e) return notFound(core, a, io, json);
        if (json) out(e);
        else {
          io.out(`${e.name}${e.placeholder ? ' (placeholder: no note yet)' : ''}`);
          io.out(`  id: ${e.id}   type: ${e.type ?? '(untyped)'}   layer: ${e.layer}${e.path ? `   file: ${e.path}` : ''}`);
          if (e.aliases.length) io.out(`  aliases: ${e.aliases.join(', ')}`);
          if (e.tags.length) io.out(`  tags: ${e.tags.map((t) => '#' + t).join(' ')}`);
          for (const [k, v] of Object.entries(e.properties)) io.out(`  ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
          if (e.relations.length) io.out('  relations:');
          for (const r of e.relations) io.out(`    ${r.direction === 'in' ? '<-' : r.direction === 'both' ? '--' : '->'} ${r.label} ${r.other.name}${r.other.placeholder ? ' (placeholder)' : ''}${r.field ? `   [${r.field}]` : ''}`);
        }
        return 0;
      }
      case 'relations': {
        const t = await core.relations(a, { ...(depth ? { depth } : {}), ...(str('type') ? { type: str('type')! } : {}), ...(direction ? { direction: direction as 'out' } : {}) });
        if (json) out(t); else printTraversal(t, io);
        return 0;
      }
      case 'list': {
        const r = await core.list({
          ...(str('type') ? { type: str('type')! } : {}), ...(str('layer') ? { layer: str('layer')! } : {}), ...(str('tag') ? { tag: str('tag')! } : {}),
          ...(flags.placeholders ? { placeholders: true } : {}), ...(limit !== undefined ? { limit } : {}), ...(offset !== undefined ? { offset } : {}),
        });
        if (json) out(r);
        else {
          for (const e of r.items) io.out(line(e));
          io.out(`${r.items.length} of ${r.total}`);
        }
        return 0;
      }
      case 'search': {
        const hits = await core.search(a, { ...(str('type') ? { type: str('type')! } : {}), ...(str('layer') ? { layer: str('layer')! } : {}), ...(limit ? { limit } : {}) });
        if (json) out(hits);
        else {
          for (const h of hits) io.out(`${line(h.entity)}   (${h.matched}, ${h.score.toFixed(2)})\n    ${h.snippet.replace(/\s+/g, ' ').slice(0, 160)}`);
          if (!hits.length) io.out('no matches');
        }
        return 0;
      }
      case 'path': {
        const p = await core.path(a, b, maxDepth ?? 6);
        if (json) { out(p); return p ? 0 : 1; }
        if (!p) { io.out(`no path from '${a}' to '${b}' within ${maxDepth ?? 6} steps`); return 1; }
        const names = new Map(p.entities.map((e) => [e.id, e.name]));
        io.out(p.entities[0]?.name ?? a);
        for (const s of p.steps) io.out(`  -[${s.label}]-> ${names.get(s.to) ?? s.to}`);
        return 0;
      }
      case 'cypher': {
        const rows = await core.cypher(a);
        if (json) out(rows);
        else {
          for (const r of rows) io.out(Object.entries(r).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join('  '));
          io.out(`${rows.length} row${rows.length === 1 ? '' : 's'}`);
        }
        return 0;
      }
    }
    return 2;
  } catch (err) {
    reportError(err, io, json);
    return 1;
  } finally {
    await core.close();
  }
}

function line(e: EntitySummary): string {
  return `${e.name}  [${e.type ?? 'untyped'}${e.placeholder ? ', placeholder' : ''}]  ${e.layer}${e.path ? '  ' + e.path : ''}`;
}

function printTraversal(t: Traversal, io: CliIo): void {
  const names = new Map([t.root, ...t.entities].map((e) => [e.id, e.name]));
  io.out(`${t.root.name}: ${t.entities.length} related entities`);
  for (const s of t.steps) {
    const from = names.get(s.from) ?? s.from;
    const to = names.get(s.to) ?? s.to;
    io.out(`${'  '.repeat(s.depth)}${from} -[${s.label}]-> ${to}`);
  }
}

async function notFound(core: CoreHost, name: string, io: CliIo, json: boolean): Promise<number> {
  const near = (await core.lookup(name, 5)).map((m) => m.entity.name);
  if (json) io.out(JSON.stringify({ error: { code: 'not-found', message: `no entity named '${name}'`, suggestions: near } }));
  else io.err(`no entity named '${name}'${near.length ? ` (did you mean: ${near.join(', ')}?)` : ''}`);
  return 1;
}
