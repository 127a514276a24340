/**
 * Start-up incremental sync: the database holds the graph of an earlier run
 * and the fresh model holds the graph of the files now. This computes the
 * delta between the two from what the store holds (entity identity + file
 * hash, and every edge), so only the difference is written.
 *
 * A non-placeholder entity record is a function of (file content, layer, id)
 * under one schema fingerprint, so (id, path, hash) identify it; placeholders
 * are compared by id and name.
 */
import type { RelationshipRecord } from '../../shared/types.js';
import type { VaultModel } from '../model/model.js';
import type { GraphDelta, GraphStore } from '../store/types.js';

const edgeSig = (e: RelationshipRecord) => `${e.from}\u0000${e.to}\u0000${e.type}\u0000${e.field ?? ''}\u0000${e.source}\u0000${e.line}`;

export async function diffAgainstStore(model: VaultModel, store: GraphStore): Promise<GraphDelta> {
  const rows = await store.cypher('MATCH (e:Entity) RETURN e.id AS id, e.path AS path, e.hash AS hash, e.name AS name, e.placeholder AS ph');
  const stored = new Map<string, string>();
  for (const r of rows) stored.set(String(r.id), `${r.path ?? ''}\u0000${r.hash ?? ''}\u0000${r.ph ? r.name : ''}\u0000${r.ph ? 1 : 0}`);
  const delta: GraphDelta = { removeEntities: [], upsertEntities: [], removeEdges: [], addEdges: [] };
  const seen = new Set<string>();
  for (const e of model.entities()) {
    seen.add(e.id);
    const sig = `${e.path ?? ''}\u0000${e.hash ?? ''}\u0000${e.placeholder ? e.name : ''}\u0000${e.placeholder ? 1 : 0}`;
    if (stored.get(e.id) !== sig) delta.upsertEntities.push(e);
  }
  for (const id of stored.keys()) if (!seen.has(id)) delta.removeEntities.push(id);

  const snap = await store.snapshot();
  const have = new Map<string, RelationshipRecord>();
  for (const e of snap.edges) have.set(edgeSig(e), e);
  for (const e of model.edges()) {
    const s = edgeSig(e);
    if (have.has(s)) have.delete(s); else delta.addEdges.push(e);
  }
  delta.removeEdges.push(...have.values());
  return delta;
}

export function deltaIsEmpty(d: GraphDelta): boolean {
  return !d.removeEntities.length && !d.upsertEntities.length && !d.removeEdges.length && !d.addEdges.length;
}
