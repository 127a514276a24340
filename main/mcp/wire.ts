/**
 * Wiring the real pieces into the MCP factory: the write-back editor
 * (main/edit, origin 'mcp') adapted to the MCP write surface, and the timeline.
 */
import { CoreError } from '../domain/errors.js';
import type { CoreHost } from '../core/index.js';
import { editorFor, type EditResult, type Editor } from '../edit/commands.js';
import { createTimeline, type TimelineService } from '../timeline/service.js';
import type { McpEditor, WriteResult } from './adapters.js';
import { replaceBody, setField } from '../edit/frontmatter.js';
import { checkTargetType } from '../edit/rules.js';
import { readVaultFile } from '../edit/safe-fs.js';
import { checkFiles, writeFiles } from '../edit/tx.js';

const MCP = { origin: 'mcp' as const };

function merge(results: EditResult[], entityId?: string): WriteResult {
  // A command touching one file twice (create, then link) reports the file once with the last diff.
  const byPath = new Map<string, string>();
  for (const r of results) for (const c of r.changed) byPath.set(c.path, byPath.has(c.path) ? `${byPath.get(c.path)}\n${c.diff}` : c.diff);
  return { changed: [...byPath].map(([path, diff]) => ({ path, diff })), entityId };
}

/** Resolve a name within a layer to an id through the core (so `layer` narrows what the editor touches). */
async function idOf(host: CoreHost, name: string, layer?: string): Promise<string> {
  if (!layer) return name;
  const e = await host.getEntity(name, { layer });
  if (!e) throw new CoreError('not-found', `no entity named "${name}" in layer ${layer}`);
  return e.id;
}

export function adaptEditor(host: CoreHost, ed: Editor): McpEditor {
  const schema = () => host.schema();
  return {
    async createEntity(a) {
      const r = await ed.createEntity(a.type, a.name, { ...MCP, layer: a.layer, properties: a.properties });
      const all: EditResult[] = [r];
      if (a.body) all.push(await ed.replaceBody(r.id, a.body, MCP));
      return merge(all, r.id);
    },
    async updateEntity(a) {
      const id = await idOf(host, a.name, a.layer);
      const all: EditResult[] = [];
      for (const [k, v] of Object.entries(a.set ?? {})) all.push(await ed.setProperty(id, k, v, MCP));
      for (const k of a.unset ?? []) all.push(await ed.unsetProperty(id, k, MCP));
      return merge(all);
    },
    async addRelationship(a) {
      return merge([await ed.addRelationship(await idOf(host, a.from, a.layer), a.type, a.to, MCP)]);
    },
    async removeRelationship(a) {
      return merge([await ed.removeRelationship(await idOf(host, a.from, a.layer), a.type, a.to, MCP)]);
    },
    async recordEvent(a) {
      const s = schema();
      const ev = s.events ?? {};
      const evType = ev.type ?? 'event';
      const props: Record<string, unknown> = { [ev.session_field ?? 'session']: a.session };
      if (a.date_in_world) props[ev.date_field ?? 'date_in_world'] = a.date_in_world;
      // Check everything that can be checked before the first byte is written.
      const partField = ev.participants_field ?? 'participants';
      const locField = ev.location_field ?? 'location';
      const mapping = (field: string) => {
        const m = s.entity_types.find((t) => t.name === evType)?.field_mappings.find((f) => f.field === field);
        if (!m) throw new CoreError('schema', `the ${evType} type maps no relationship to its "${field}" field in schema.yaml`);
        return m;
      };
      const targets = [
        ...(a.participants ?? []).map((n) => ({ n, m: mapping(partField) })),
        ...(a.location ? [{ n: a.location, m: mapping(locField) }] : []),
      ];
      for (const t of targets) {
        const e = host.engine.model.resolve(t.n, a.layer); // as the link from the event's layer will resolve
        if (e && !e.placeholder) checkTargetType(t.m, e.type, e.name);
      }
      const r = await ed.createEntity(evType, a.title, { ...MCP, layer: a.layer, properties: props });
      const all: EditResult[] = [r];
      for (const t of targets) all.push(await ed.addRelationship(r.id, t.m.relationship, t.n, MCP));
      if (a.consequences?.length || a.body) {
        // `consequences` is the timeline's list, not a schema property, so the editor's setProperty
        // refuses it: write it with the write-back's own primitives (conflict check, atomic write,
        // expectWrite, applyPaths, origin 'mcp'). The timeline validates each item (get_problems).
        const cur = await readVaultFile(host.vaultDir, r.path);
        if (!cur) throw new CoreError('conflict', `${r.path} disappeared while recording the event`);
        let text = cur.text;
        if (a.consequences?.length) text = setField(text, 'consequences', a.consequences);
        if (a.body) text = replaceBody(text, a.body);
        await checkFiles(host.vaultDir, [{ path: r.path, expect: cur.hash, mine: text }], 'while recording the event');
        all.push(await writeFiles(host.vaultDir, host.engine, [{ path: r.path, before: cur.text, after: text }], 'mcp'));
      }
      return merge(all, r.id);
    },
  };
}

export interface McpWiring {
  editor?: McpEditor;
  timeline: TimelineService;
  dispose(): void;
}

export function wireMcp(host: CoreHost, mode: 'read' | 'read-write'): McpWiring {
  const timeline = createTimeline(host);
  // The core's one editor: the app's UI and the in-app MCP bridge share its queue (and its
  // conflict checks); MCP commands do not enter the undo history (origin 'mcp').
  const raw = mode === 'read-write' ? editorFor(host) : undefined;
  return {
    timeline,
    editor: raw ? adaptEditor(host, raw) : undefined,
    dispose: () => { timeline.close(); },
  };
}
