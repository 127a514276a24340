/**
 * The visibility model (docs/vault-format.md, "Visibility"): what players may
 * see, decided from plain Obsidian markdown.
 * - note: frontmatter `visibility: gm | players` (`player` accepted), else the
 *   type's `visibility` property default in schema.yaml, else lorecraft.yaml
 *   `visibility.default` (players);
 * - property / relationship field: `secret: true` in schema.yaml is GM-only;
 * - block: `%% … %%` comments and `> [!secret]` / `> [!gm]` callouts in a body.
 * Pure: no I/O.
 */
import type { EntityRecord } from '../../shared/types.js';
import type { Schema, VaultConfig } from '../config/types.js';

export type Audience = 'gm' | 'players';

export interface VisibilityRules {
  /** the note's own visibility (before any event reveals it) */
  noteVisibility(e: Pick<EntityRecord, 'type' | 'properties' | 'placeholder'>): Audience;
  /** a property of the type that is GM-only (`secret: true`), or the visibility field itself */
  isSecretProperty(type: string | null, property: string): boolean;
  /** a relationship field of the type that is GM-only (`secret: true` on its field mapping) */
  isSecretField(type: string | null, field: string | null): boolean;
  /** the frontmatter key holding a note's visibility */
  readonly field: string;
}

const norm = (v: unknown): Audience | null => {
  if (typeof v !== 'string') return null;
  const s = v.trim().toLowerCase();
  if (s === 'gm' || s === 'dm' || s === 'secret') return 'gm';
  if (s === 'players' || s === 'player' || s === 'public') return 'players';
  return null;
};

export function visibilityRules(config: VaultConfig, schema: Schema): VisibilityRules {
  const field = config.visibility?.field ?? 'visibility';
  const vaultDefault: Audience = config.visibility?.default ?? 'players';
  // what the questions read of a type, once per type name as written (asked once per note and per relationship)
  interface TypeRules { noteDefault: Audience; secretProperties: Set<string>; secretFields: Set<string> }
  const types = new Map(schema.entity_types.map((t) => [t.name.toLowerCase(), t]));
  const none: TypeRules = { noteDefault: vaultDefault, secretProperties: new Set(), secretFields: new Set() };
  const byName = new Map<string, TypeRules>();
  const typeOf = (type: string | null): TypeRules => {
    if (!type) return none;
    let r = byName.get(type);
    if (!r) {
      const t = types.get(type.toLowerCase());
      r = !t ? none : {
        noteDefault: norm(t.properties.find((p) => p.name === field)?.default) ?? vaultDefault,
        // the first declaration of a name decides, as a find() over the list would
        secretProperties: new Set(t.properties.filter((p, i) => p.secret && t.properties.findIndex((q) => q.name === p.name) === i).map((p) => p.name)),
        secretFields: new Set(t.field_mappings.filter((m, i) => m.secret && t.field_mappings.findIndex((q) => q.field === m.field) === i).map((m) => m.field)),
      };
      byName.set(type, r);
    }
    return r;
  };
  return {
    field,
    noteVisibility(e) {
      return norm(e.properties[field]) ?? typeOf(e.type).noteDefault;
    },
    isSecretProperty(type, property) {
      return typeOf(type).secretProperties.has(property);
    },
    isSecretField(type, f) {
      if (!f) return false;
      return typeOf(type).secretFields.has(f);
    },
  };
}

const SECRET_CALLOUT = /^\s*>\s*\[!(?:secret|gm)\][+-]?/i;

/**
 * The body as players may read it: `%% … %%` comments (inline or across lines)
 * and `> [!secret]` / `> [!gm]` callouts (the header line and every `>` line
 * after it) removed. An unclosed `%%` hides the rest of the note, as Obsidian does.
 */
export function redactBody(body: string): string {
  let text = body;
  if (text.includes('%%')) {
    let out = '';
    let i = 0;
    for (;;) {
      const open = text.indexOf('%%', i);
      if (open < 0) { out += text.slice(i); break; }
      out += text.slice(i, open);
      const close = text.indexOf('%%', open + 2);
      if (close < 0) break;
      i = close + 2;
    }
    text = out;
  }
  if (!/\[!(?:secret|gm)\]/i.test(text)) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let inSecret = false;
  for (const line of lines) {
    if (SECRET_CALLOUT.test(line)) { inSecret = true; continue; }
    if (inSecret && /^\s*>/.test(line)) continue;
    inSecret = false;
    kept.push(line);
  }
  return kept.join('\n');
}
