/**
 * `--format json`: the world at a session as one JSON document (docs/export.md).
 * Versioned: a consumer checks `format` and `version`; fields are only added
 * within a version.
 */
import type { WorldView } from '../visibility/world.js';
import { importance } from './importance.js';
import { summaryOf } from './summary.js';

export const WORLD_JSON_VERSION = 1;

export function worldJson(view: WorldView): string {
  const rank = importance(view);
  return JSON.stringify({
    format: 'lorecraft-world',
    version: WORLD_JSON_VERSION,
    project: view.project,
    audience: view.audience,
    layer: view.layer,
    session: view.session,
    entities: view.entities.map((e) => ({
      id: e.id, name: e.name, type: e.type, layer: e.layer, path: e.path, placeholder: e.placeholder,
      tags: e.tags, aliases: e.aliases, properties: e.properties, lifecycle: e.lifecycle, dead: e.dead,
      importance: Number((rank.get(e.id) ?? 0).toFixed(6)), summary: summaryOf(e), body: e.body,
    })),
    relationships: view.relationships,
    events: view.events,
  }, null, 2) + '\n';
}
