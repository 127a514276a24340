/**
 * Name rules the model does not already report: an alias that collides, in
 * one layer, with another entity's name or alias (a reference to it is then
 * ambiguous). Two notes with one name are the model's `duplicate-name`.
 */
import type { EntityRecord, Problem } from '../../../shared/types.js';
import { normaliseName } from '../../../shared/names.js';
import type { Rule } from '../types.js';

interface Claim { entity: EntityRecord; kind: 'name' | 'alias'; text: string }

export const duplicateAlias: Rule = {
  code: 'duplicate-alias',
  defaultSeverity: 'warning',
  origin: 'problems',
  summary: "an alias equals another note's name or alias in the same layer",
  hint: 'rename or remove the alias so each name points at one note',
  check({ model }) {
    // layer -> normalised key -> claims
    const index = new Map<string, Map<string, Claim[]>>();
    const claim = (c: Claim) => {
      let byKey = index.get(c.entity.layer);
      if (!byKey) index.set(c.entity.layer, (byKey = new Map()));
      const key = normaliseName(c.text);
      if (!key) return;
      const l = byKey.get(key);
      if (l) l.push(c); else byKey.set(key, [c]);
    };
    for (const e of model.entities()) {
      if (e.placeholder) continue;
      claim({ entity: e, kind: 'name', text: e.name });
      const own = normaliseName(e.name);
      const seen = new Set<string>([own]);
      for (const a of e.aliases) {
        const k = normaliseName(a);
        if (seen.has(k)) continue; // an alias equal to the note's own name, or repeated: harmless
        seen.add(k);
        claim({ entity: e, kind: 'alias', text: a });
      }
    }
    const out: Problem[] = [];
    for (const byKey of index.values()) {
      for (const claims of byKey.values()) {
        const owners = new Set(claims.map((c) => c.entity.id));
        if (owners.size < 2) continue;
        for (const c of claims) {
          if (c.kind !== 'alias' || c.entity.path === null) continue;
          const others = claims.filter((o) => o.entity.id !== c.entity.id);
          const what = others.map((o) => `the ${o.kind} of '${o.entity.name}'${o.entity.path ? ` (${o.entity.path})` : ''}`).join(', ');
          const line = model.note(c.entity.path)?.fieldLines['aliases'] ?? model.note(c.entity.path)?.fieldLines['alias'] ?? 1;
          out.push({
            severity: this.defaultSeverity, code: this.code, file: c.entity.path, line, field: 'aliases',
            entityId: c.entity.id,
            message: `alias '${c.text}' of '${c.entity.name}' is also ${what}`,
            hint: `remove or change the alias '${c.text}' (a link to it is ambiguous)`,
          });
        }
      }
    }
    return out;
  },
};
