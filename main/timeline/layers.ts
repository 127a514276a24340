/**
 * Layers: scope (a layer and the layers it depends on), name resolution within
 * a scope, and the layer rules (unknown dependency, dependency cycle,
 * cross-layer edit). Pure over plain data.
 */
import { refTarget } from '../../shared/wikilinks.js';
import { normaliseName } from '../../shared/names.js';
import type { EntityRecord, Problem } from '../../shared/types.js';
import type { VaultConfig } from '../config/types.js';

/** The layer followed by its depends_on layers, transitively, depth-first in declaration order, no repeats. */
export function layerScope(config: VaultConfig, layer: string): string[] {
  const byName = new Map(config.layers.map((l) => [l.name, l]));
  const out: string[] = [];
  const visit = (name: string) => {
    if (out.includes(name) || !byName.has(name)) return;
    out.push(name);
    for (const d of byName.get(name)!.depends_on) visit(d);
  };
  visit(layer);
  return out;
}

/** `[[folder/Target.md#h|label]]` -> candidate keys: the full target, then its last segment. */
export function referenceKeys(ref: string): string[] {
  const t = refTarget(ref).replace(/\.md$/i, '');
  const keys = [normaliseName(t)];
  const slash = t.lastIndexOf('/');
  if (slash >= 0) keys.push(normaliseName(t.slice(slash + 1)));
  return keys.filter((k) => k !== '');
}

/** Resolves names the way links do: names, then aliases, then file names, within a layer scope. */
export class NameIndex {
  private readonly perLayer = new Map<string, { names: Map<string, EntityRecord>; aliases: Map<string, EntityRecord>; files: Map<string, EntityRecord>; paths: Map<string, EntityRecord> }>();

  constructor(entities: Iterable<EntityRecord>) {
    for (const e of entities) {
      let l = this.perLayer.get(e.layer);
      if (!l) { l = { names: new Map(), aliases: new Map(), files: new Map(), paths: new Map() }; this.perLayer.set(e.layer, l); }
      const key = normaliseName(e.name);
      const cur = l.names.get(key);
      // a real note wins over a placeholder; among notes the first by path order (ids without '#')
      if (!cur || (cur.placeholder && !e.placeholder) || (cur.id.includes('#') && !e.id.includes('#'))) l.names.set(key, e);
      for (const a of e.aliases) if (!l.aliases.has(normaliseName(a))) l.aliases.set(normaliseName(a), e);
      if (e.path) {
        const base = e.path.replace(/^.*\//, '').replace(/\.md$/i, '');
        if (!l.files.has(normaliseName(base))) l.files.set(normaliseName(base), e);
        l.paths.set(normaliseName(e.path.replace(/\.md$/i, '')), e);
      }
    }
  }

  /** Resolve in the given layers, in order; placeholders are skipped (a placeholder is "unknown"). */
  resolve(ref: string, scope: string[]): EntityRecord | undefined {
    const keys = referenceKeys(ref);
    for (const kind of ['names', 'aliases', 'files', 'paths'] as const) {
      for (const layer of scope) {
        const l = this.perLayer.get(layer);
        if (!l) continue;
        for (const k of keys) {
          const e = l[kind].get(k);
          if (e && !e.placeholder) return e;
        }
      }
    }
    return undefined;
  }
}

/**
 * Layer rules:
 * - `layer-unknown-dependency`: depends_on names a layer that is not configured;
 * - `layer-cycle`: depends_on loops back;
 * - `cross-layer-edit`: a note in a non-canonical layer has the name of an entity of a layer it depends on
 *   and carries properties — it edits that entity directly instead of recording an event.
 */
export function layerProblems(
  config: VaultConfig,
  entities: Iterable<EntityRecord>,
  opts: { eventType?: string; fieldLine?: (path: string, field: string) => number | undefined } = {},
): Problem[] {
  const problems: Problem[] = [];
  const names = new Set(config.layers.map((l) => l.name));
  for (const l of config.layers) {
    for (const d of l.depends_on) {
      if (!names.has(d)) problems.push({ severity: 'error', code: 'layer-unknown-dependency', message: `layer '${l.name}' depends on '${d}', which is not a configured layer`, file: 'lorecraft.yaml', field: 'layers', hint: `add a layer named '${d}' or remove it from depends_on` });
    }
    if (layerScope(config, l.name).some((dep) => dep !== l.name && layerScope(config, dep).includes(l.name))) {
      problems.push({ severity: 'error', code: 'layer-cycle', message: `layer '${l.name}' depends on itself through depends_on`, file: 'lorecraft.yaml', field: 'layers', hint: 'remove one depends_on entry of the loop' });
    }
  }
  const byLayerKey = new Map<string, EntityRecord>();
  const all = [...entities];
  for (const e of all) if (!e.placeholder) byLayerKey.set(`${e.layer}\u0000${normaliseName(e.name)}`, e);
  for (const l of config.layers) {
    if (l.canonical) continue;
    const deps = layerScope(config, l.name).slice(1);
    for (const e of all) {
      if (e.layer !== l.name || e.placeholder || !e.path || e.type === (opts.eventType ?? 'event')) continue;
      const props = Object.keys(e.properties);
      if (props.length === 0) continue;
      const base = deps.map((d) => byLayerKey.get(`${d}\u0000${normaliseName(e.name)}`)).find(Boolean);
      if (!base) continue;
      problems.push({
        severity: 'error', code: 'cross-layer-edit', file: e.path, field: props[0], entityId: e.id,
        line: opts.fieldLine?.(e.path, props[0]!),
        message: `'${e.name}' in campaign layer '${l.name}' redefines ${base.id} from layer '${base.layer}' (${props.join(', ')})`,
        hint: `record an event with consequences for '${e.name}' instead of editing it in layer '${l.name}'`,
      });
    }
  }
  return problems;
}
