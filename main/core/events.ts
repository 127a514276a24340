/**
 * Record an event with its consequences: the ONE implementation behind the app's "new event here"
 * (timeline-create-event) and MCP `record_event`. Everything checkable is checked before the first
 * byte is written (layer, the event type's mappings, each known target's type); then the note is
 * created with its session, date and `consequences`, linked to its participants and location, and
 * given its body — all in one editor transaction: one undo step, and a failure part-way leaves every
 * file as it was.
 */
import { CoreError } from '../domain/errors.js';
import type { SyncEngine } from '../sync/types.js';
import type { EditOptions, EditResult, Editor } from '../edit/commands.js';
import { checkTargetType } from '../edit/rules.js';

export interface RecordEventArgs {
  /** default: the canonical layer */
  layer?: string;
  session: number;
  title: string;
  /** the world's date, written to the schema's events.date_field */
  date?: string;
  participants?: string[];
  location?: string;
  /** the timeline's consequence mappings (docs/timeline.md), checked item by item by the timeline */
  consequences?: Array<Record<string, unknown>>;
  body?: string;
  /** a participant or location with no note becomes a placeholder (a link to a note not written yet); else refused */
  placeholders?: boolean;
}

export type RecordEventResult = EditResult & { id: string; path: string };

export async function recordEvent(
  host: { readonly engine: SyncEngine },
  ed: Editor,
  a: RecordEventArgs,
  opts: EditOptions = {},
): Promise<RecordEventResult> {
  const model = host.engine.model;
  const cfg = model.config();
  const layer = a.layer ?? (cfg.layers.find((l) => l.canonical) ?? cfg.layers[0])!.name;
  if (!cfg.layers.some((l) => l.name === layer)) {
    throw new CoreError('unknown-layer', `unknown layer '${layer}' (layers: ${cfg.layers.map((l) => l.name).join(', ')})`, { layer });
  }
  const schema = model.schema();
  const ev = schema.events ?? {};
  const type = ev.type ?? 'event';
  const def = schema.entity_types.find((t) => t.name === type);
  const props: Record<string, unknown> = { [ev.session_field ?? 'session']: a.session };
  if (a.date) props[ev.date_field ?? 'date_in_world'] = a.date;
  if (a.consequences?.length) props.consequences = a.consequences;
  const mapping = (field: string, what: string) => {
    const m = def?.field_mappings.find((f) => f.field === field);
    if (!m) throw new CoreError('schema', `the ${type} type maps no relationship to its "${field}" field (${what}) in schema.yaml`, { field });
    return m;
  };
  const targets = [
    ...(a.participants ?? []).map((name) => ({ name, m: mapping(ev.participants_field ?? 'participants', 'participants') })),
    ...(a.location ? [{ name: a.location, m: mapping(ev.location_field ?? 'location', 'location') }] : []),
  ].map((t) => ({ ...t, target: model.resolve(t.name, layer) })); // as the link from the event's layer resolves
  for (const t of targets) if (t.target && !t.target.placeholder) checkTargetType(t.m, t.target.type, t.target.name);

  const out = await ed.transaction(`record event ${a.title}`, async () => {
    const made = await ed.createEntity(type, a.title, { ...opts, layer, properties: props });
    const ref = made.id || made.path;
    for (const t of targets) {
      const known = t.target && !t.target.placeholder;
      await ed.addRelationship(ref, t.m.relationship, known ? t.target!.id : t.name, { ...opts, ...(!known && a.placeholders ? { placeholder: true } : {}) });
    }
    if (a.body) await ed.replaceBody(ref, a.body, opts);
    return made;
  }, opts);
  return { changed: out.changed, event: out.event, id: out.result.id, path: out.result.path };
}
