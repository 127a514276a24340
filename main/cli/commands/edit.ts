/**
 * `lorecraft edit <sub> ...`: the app's edit commands for scripting and for
 * checking from outside. Same validation and refusals as the app (main/edit).
 * Exit 0 done, 1 refused (reason printed), 2 usage.
 */
import { parse as parseYaml } from 'yaml';
import type { CliIo } from '../io.js';
import { progressLine } from '../progress.js';
import { parseArgs } from '../io.js';
import { CoreError, type EditResult } from '../../core/index.js';

const USAGE = `usage: lorecraft edit <command> --vault DIR [--json] [--db DIR] [--schema FILE] [--config FILE]
  set NAME FIELD VALUE      set a property (VALUE is read as YAML per the property's type)
  unset NAME FIELD          remove a property
  link A REL B              add relationship A -REL-> B (written where the schema maps it)
  unlink A REL B            remove it
  rename OLD NEW            rename the note and every reference to it
  create TYPE NAME [--layer L]  create a note from the type's template
  delete NAME               move the note to <vault>/.lorecraft/trash/
  trash                     list the trash, most recently deleted first (TRASH_PATH  deleted-at  path)
  restore TRASH_PATH        move a trashed note back to where it was
  rel-set A REL B KEY VALUE set a property of relationship A -REL-> B as A's note writes it
  rel-unset A REL B KEY     remove it (the item turns plain again when none is left)`;

const ARITY: Record<string, number> = {
  set: 3, unset: 2, link: 3, unlink: 3, rename: 2, create: 2, delete: 1, trash: 0, restore: 1, 'rel-set': 5, 'rel-unset': 4,
};

/** VALUE text -> typed value, per the property's schema type. */
export function parseValue(raw: string, kind: string | undefined, values?: Array<string | number | boolean>): unknown {
  if (kind === 'string' || kind === 'date') return raw;
  if (kind === 'enum' && values?.some((v) => v === raw)) return raw;
  let v: unknown;
  try { v = parseYaml(raw); } catch { v = raw; }
  if (kind === 'list') {
    if (Array.isArray(v)) return v;
    return v === null || v === undefined || v === '' ? [] : [v];
  }
  return v === undefined ? raw : v;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { flags, positionals, errors } = parseArgs(argv, { booleans: ['json', 'help'], strings: ['vault', 'db', 'schema', 'config', 'layer'] });
  const [sub, ...args] = positionals;
  if (flags.help) { io.out(USAGE); return 0; }
  if (errors.length || !sub || !(sub in ARITY) || args.length !== ARITY[sub] || typeof flags.vault !== 'string') {
    for (const e of errors) io.err(`lorecraft edit: ${e}`);
    if (sub && !(sub in ARITY)) io.err(`lorecraft edit: unknown command '${sub}'`);
    else if (sub && args.length !== ARITY[sub]) io.err(`lorecraft edit ${sub}: expects ${ARITY[sub]} argument(s), got ${args.length}`);
    if (typeof flags.vault !== 'string') io.err('lorecraft edit: --vault DIR is required');
    io.err(USAGE);
    return 2;
  }
  if (flags.layer !== undefined && sub !== 'create') { io.err('lorecraft edit: --layer only applies to create'); return 2; }
  const json = flags.json === true;

  const { openCore } = await import('../../core/index.js');
  let host: Awaited<ReturnType<typeof openCore>> | null = null;
  try {
    const progress = progressLine(io); // files read / total on a terminal (stderr)
    host = await openCore({
      vaultDir: flags.vault,
      ...(typeof flags.db === 'string' ? { dbDir: flags.db } : {}),
      ...(typeof flags.config === 'string' ? { configPath: flags.config } : {}),
      ...(typeof flags.schema === 'string' ? { schemaPath: flags.schema } : {}),
      ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
    }).finally(() => progress.end());
    const ed = host.editor;
    const o = { origin: 'app' as const, history: false };
    if (sub === 'trash') {
      const items = await host.trash();
      if (json) io.out(JSON.stringify({ items }, null, 2));
      else if (!items.length) io.out('the trash is empty');
      else for (const t of items) io.out(`${t.trashPath}  ${t.deletedAt}  ${t.path}`);
      return 0;
    }
    let res: EditResult & { path?: string; referrers?: string[]; trashPath?: string };
    const a = args as [string, string, string];
    switch (sub) {
      case 'set': {
        const ent = host.resolveEntity(a[0]);
        const def = host.schema().entity_types.find((t) => t.name.toLowerCase() === ent?.type?.toLowerCase());
        const p = def?.properties.find((x) => x.name === a[1]);
        const value = a[1] === 'tags' || a[1] === 'aliases' ? parseValue(a[2], 'list') : parseValue(a[2], p?.type, p?.values);
        res = await ed.setProperty(a[0], a[1], value, o);
        break;
      }
      case 'unset': res = await ed.unsetProperty(a[0], a[1], o); break;
      case 'link': res = await ed.addRelationship(a[0], a[1], a[2], o); break;
      case 'unlink': res = await ed.removeRelationship(a[0], a[1], a[2], o); break;
      case 'rename': res = await ed.rename(a[0], a[1], o); break;
      case 'create': res = await ed.createEntity(a[0], a[1], { ...o, ...(typeof flags.layer === 'string' ? { layer: flags.layer } : {}) }); break;
      case 'restore': res = await ed.restore(a[0], o); break;
      case 'rel-set': {
        const canon = host.index.canonicalName(a[1].toUpperCase());
        const def = host.schema().relationship_types.find((r) => r.name === canon)?.properties?.find((x) => x.name === args[3]);
        // since / until: a session number, or an event written as a name or [[link]]
        const raw = args[4]!;
        const value = args[3] === 'since' || args[3] === 'until' ? (/^\s*\d+\s*$/.test(raw) ? Number(raw) : raw) : parseValue(raw, def?.type ?? 'string', def?.values);
        res = await ed.setRelationshipProperty(a[0], a[1], a[2], args[3]!, value, o);
        break;
      }
      case 'rel-unset': res = await ed.unsetRelationshipProperty(a[0], a[1], a[2], args[3]!, o); break;
      default: res = await ed.delete(a[0], o); break;
    }
    const extra: { referrers?: string[]; trashPath?: string; path?: string } = {};
    if (res.referrers) extra.referrers = res.referrers;
    if (res.trashPath) extra.trashPath = res.trashPath;
    if (sub === 'create' || sub === 'rename' || sub === 'restore') extra.path = res.path!;
    if (json) {
      io.out(JSON.stringify({ changed: res.changed, ...extra }, null, 2));
    } else {
      if (!res.changed.length) io.out('nothing to change');
      for (const c of res.changed) io.out(`changed ${c.path}`);
      const refs = extra.referrers;
      if (refs?.length) {
        io.out(`still referring to it (${refs.length}):`);
        for (const r of refs) io.out(`  ${r}`);
      }
    }
    return 0;
  } catch (err) {
    if (!(err instanceof CoreError)) throw err;
    if (json) io.out(JSON.stringify({ error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } }, null, 2));
    io.err(`lorecraft edit ${sub}: ${err.message}`);
    return 1;
  } finally {
    if (host) await host.close();
  }
}
