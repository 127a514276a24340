/**
 * Wiring the core into the MCP factory: the core's editor (origin 'mcp') and
 * recordEvent adapted to the MCP write surface, and the core's timeline.
 */
import { CoreError, type CoreHost, type EditResult, type Editor, type TimelineService } from '../core/index.js';
import type { McpEditor, WriteResult } from './adapters.js';

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

/**
 * The editor's refusal of a relationship field written as a property names the app's and CLI's
 * link/unlink; an MCP client has add_relationship / remove_relationship instead.
 */
async function inMcpWords<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    const d = e instanceof CoreError ? e.details : undefined;
    if (e instanceof CoreError && e.code === 'invalid' && d && typeof d.relationship === 'string') {
      const msg = e.message.replace(/use link\/unlink( with \w+)?$/, `use add_relationship / remove_relationship (type ${d.relationship})`);
      throw new CoreError(e.code, msg, d);
    }
    throw e;
  }
}

export function adaptEditor(host: CoreHost, ed: Editor): McpEditor {
  return {
    async createEntity(a) {
      // note and body in one transaction: both or neither
      const out = await inMcpWords(() => ed.transaction(`create ${a.type} ${a.name}`, async () => {
        const made = await ed.createEntity(a.type, a.name, { ...MCP, layer: a.layer, properties: a.properties });
        if (a.body) await ed.replaceBody(made.id || made.path, a.body, MCP);
        return made;
      }, MCP));
      return { changed: out.changed, entityId: out.result.id };
    },
    async updateEntity(a) {
      const id = await idOf(host, a.name, a.layer);
      const all: EditResult[] = [];
      for (const [k, v] of Object.entries(a.set ?? {})) all.push(await inMcpWords(() => ed.setProperty(id, k, v, MCP)));
      for (const k of a.unset ?? []) all.push(await ed.unsetProperty(id, k, MCP));
      return merge(all);
    },
    async addRelationship(a) {
      return merge([await ed.addRelationship(await idOf(host, a.from, a.layer), a.type, a.to, { ...MCP, ...(a.properties ? { properties: a.properties } : {}) })]);
    },
    async restoreFromTrash(a) {
      const r = await ed.restore(a.trash_path, MCP);
      return { ...merge([r], host.engine.model.entityIdOfPath(r.path)), path: r.path };
    },
    async removeRelationship(a) {
      return merge([await ed.removeRelationship(await idOf(host, a.from, a.layer), a.type, a.to, MCP)]);
    },
    async recordEvent(a) {
      // the core's one implementation (the app's "new event" uses it too); an unknown participant is
      // refused here (no placeholders: an assistant names notes that exist, or creates them first)
      const r = await host.recordEvent({
        layer: a.layer, session: a.session, title: a.title,
        ...(a.date_in_world ? { date: a.date_in_world } : {}), ...(a.participants ? { participants: a.participants } : {}),
        ...(a.location ? { location: a.location } : {}), ...(a.consequences ? { consequences: a.consequences } : {}),
        ...(a.body ? { body: a.body } : {}),
      }, MCP);
      return merge([r], r.id);
    },
  };
}

export interface McpWiring {
  editor?: McpEditor;
  timeline: TimelineService;
  dispose(): void;
}

export function wireMcp(host: CoreHost, mode: 'read' | 'read-write'): McpWiring {
  const timeline = host.timeline; // the core's: closed with the core
  // The core's one editor: the app's UI and the in-app MCP bridge share its queue (and its
  // conflict checks); MCP commands do not enter the undo history (origin 'mcp').
  const raw = mode === 'read-write' ? host.editor : undefined;
  return {
    timeline,
    editor: raw ? adaptEditor(host, raw) : undefined,
    dispose: () => undefined,
  };
}
