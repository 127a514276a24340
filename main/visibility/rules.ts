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
  const types = new Map(schema.entity_types.map((t) => [t.name.toLowerCase(), t]));
  const typeOf = (type: string | null) => (type ? types.get(type.toLowerCase()) : undefined);
  return {
    field,
    noteVisibility(e) {
      const own = norm(e.properties[field]);
      if (own) return own;
      const def = typeOf(e.type)?.properties.find((p) => p.name === field)?.default;
      return norm(def) ?? vaultDefault;
    },
    isSecretProperty(type, property) {
      return !!typeOf(type)?.properties.find((p) => p.name === property)?.secret;
    },
    isSecretField(type, f) {
      if (!f) return false;
      return !!typeOf(type)?.field_mappings.find((m) => m.field === f)?.secret;
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
