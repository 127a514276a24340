/**
 * `lorecraft query state|timeline|diff`: the world as it stood at a session.
 *   query state NAME --layer L [--session N] [--json]
 *   query timeline --layer L [--entity E] [--from N] [--to M] [--json]   (--json: calendar order, date as written + ordinal)
 *   query diff --layer L --from N --to M [--json]
 * plus --vault DIR, --db DIR, --config FILE, --schema FILE.
 * Reads the notes (files-only model), so it also works while the app holds the
 * database; --db is accepted for symmetry with the other query commands.
 * Exit: 0 ok, 1 not found, 2 usage.
 */
import { CoreError, formatDiff, formatState, formatTimeline, timelineOfFiles, type TimelineIndex } from '../../core/index.js';
import { parseArgs, type CliIo } from '../io.js';

export type TimeSub = 'state' | 'timeline' | 'diff';

const USAGE: Record<TimeSub, string> = {
  state: 'usage: lorecraft query state NAME --layer L [--session N] [--json] [--vault DIR]',
  timeline: 'usage: lorecraft query timeline --layer L [--entity E] [--from N] [--to M] [--json] [--vault DIR]',
  diff: 'usage: lorecraft query diff --layer L --from N --to M [--json] [--vault DIR]',
};

function num(v: string | boolean | undefined, flag: string, errors: string[]): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) { errors.push(`--${flag} must be a session number (got '${String(v)}')`); return undefined; }
  return n;
}

export async function runTime(sub: TimeSub, argv: string[], io: CliIo): Promise<number> {
  const args = argv[0] === sub ? argv.slice(1) : argv;
  const { flags, positionals, errors } = parseArgs(args, {
    booleans: ['json', 'help'],
    strings: ['layer', 'session', 'entity', 'from', 'to', 'vault', 'db', 'config', 'schema'],
  });
  if (flags.help) { io.out(USAGE[sub]); return 0; }
  const session = num(flags.session, 'session', errors);
  const from = num(flags.from, 'from', errors);
  const to = num(flags.to, 'to', errors);
  const name = positionals.join(' ').trim();
  if (sub === 'state' && !name) errors.push('state needs an entity NAME');
  if (sub !== 'state' && positionals.length > 0) errors.push(`unexpected argument '${positionals[0]}'`);
  if (sub === 'diff' && (from === undefined || to === undefined)) errors.push('diff needs --from N and --to M');
  if (errors.length > 0) {
    for (const e of errors) io.err(`lorecraft query ${sub}: ${e}`);
    io.err(USAGE[sub]);
    return 2;
  }

  const vault = await timelineOfFiles(typeof flags.vault === 'string' ? flags.vault : process.cwd(), {
    configPath: typeof flags.config === 'string' ? flags.config : undefined,
    schemaPath: typeof flags.schema === 'string' ? flags.schema : undefined,
  });
  for (const p of vault.problems.filter((x) => x.severity === 'error' && /^config|^schema/.test(x.code))) {
    io.err(`${p.file ?? ''}${p.line ? `:${p.line}` : ''}: ${p.message}`);
  }
  const ix = vault.index;

  let layer = typeof flags.layer === 'string' ? flags.layer : undefined;
  if (!layer) {
    const campaigns = vault.config.layers.filter((l) => !l.canonical).map((l) => l.name);
    if (campaigns.length !== 1) {
      io.err(`lorecraft query ${sub}: --layer is required (layers: ${ix.layers().join(', ')})`);
      return 2;
    }
    layer = campaigns[0]!;
  }

  try {
    return run(sub, ix, layer, { name, session, from, to, entity: typeof flags.entity === 'string' ? flags.entity : undefined, json: flags.json === true }, io);
  } catch (err) {
    if (err instanceof CoreError) { io.err(`lorecraft query ${sub}: ${err.message}`); return 1; }
    throw err;
  }
}

interface Opts { name: string; session?: number; from?: number; to?: number; entity?: string; json: boolean }

function run(sub: TimeSub, ix: TimelineIndex, layer: string, o: Opts, io: CliIo): number {
  const names = new Map(ix.graphAt(layer, null).entities.map((e) => [e.id, e.name]));
  const nameOf = (id: string) => names.get(id) ?? id;
  const layerProblems = ix.problems().filter((p) => p.severity === 'error' && p.code.startsWith('event-'));
  const warnProblems = () => {
    if (!o.json && layerProblems.length > 0) io.err(`(${layerProblems.length} event problem${layerProblems.length === 1 ? '' : 's'}: invalid consequences are not applied — see lorecraft validate)`);
  };

  if (sub === 'state') {
    const st = ix.stateAt(o.name, layer, o.session ?? null);
    if (!st) { io.err(`lorecraft query state: no entity '${o.name}' in layer '${layer}' or the layers it depends on`); return 1; }
    if (o.json) io.out(JSON.stringify({ layer, session: o.session ?? null, state: st }, null, 2));
    else { for (const l of formatState(st, o.session ?? null, nameOf)) io.out(l); warnProblems(); }
    return 0;
  }
  if (sub === 'timeline') {
    const events = ix.timeline(layer, { entity: o.entity, from: o.from, to: o.to });
    if (o.json) {
      // calendar order (the world's calendar when it has one), each with its date as written and its ordinal
      const keep = new Set(events.map((e) => e.id));
      const chronicle = ix.chronicle(layer).filter((e) => keep.has(e.id))
        .map((e) => ({ ...e, date_written: e.date?.label ?? null, date_display: e.date?.display ?? e.date?.label ?? null, ordinal: e.date?.ordinal ?? null }));
      io.out(JSON.stringify({ layer, sessions: ix.sessions(layer), events: chronicle }, null, 2));
    }
    else { for (const l of formatTimeline(events, layer)) io.out(l); warnProblems(); }
    return 0;
  }
  const d = ix.diff(layer, o.from!, o.to!);
  if (o.json) io.out(JSON.stringify(d, null, 2));
  else { for (const l of formatDiff(d, nameOf)) io.out(l); warnProblems(); }
  return 0;
}
