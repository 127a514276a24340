/**
 * Frontmatter keys the note's type does not declare (`unknown-property`).
 * Info by default: real vaults carry many extra keys (cssclasses, plugin
 * fields...) and they do no harm; a GM who wants a strict schema raises it.
 * Values against declared properties (type, enum, required) are checked by the
 * config module's validateProperties and gathered by schema-values.ts.
 */
import type { Problem } from '../../../shared/types.js';
import { frontmatterOnce } from '../../parse/frontmatter-once.js';
import type { Rule } from '../types.js';
import { declaredFields, schemaIndex } from '../fields.js';

export const unknownProperty: Rule = {
  code: 'unknown-property',
  defaultSeverity: 'info',
  origin: 'problems',
  summary: 'a frontmatter key that the note\'s type does not declare',
  hint: 'declare the property on the type in schema.yaml, rename the key, or set unknown-property: off',
  check({ model }) {
    const ix = schemaIndex(model.schema());
    const cache = new Map<string, Set<string>>();
    const out: Problem[] = [];
    for (const e of model.entities()) {
      if (e.placeholder || e.path === null) continue;
      const type = e.type !== null ? ix.entityType(e.type) : undefined;
      if (!type) continue; // untyped or unknown type: nothing declares anything (unknown-type covers the latter)
      let declared = cache.get(type.name);
      if (!declared) cache.set(type.name, (declared = declaredFields(ix, type.name)));
      const note = model.note(e.path);
      if (!note) continue;
      // its keys read once (a cached note stays bytes: parse/frontmatter-once.ts); its field lines only for a problem
      for (const key of Object.keys(frontmatterOnce(note))) {
        if (declared.has(key)) continue;
        out.push({
          severity: this.defaultSeverity, code: this.code, file: e.path, line: note.fieldLines[key] ?? 1, field: key,
          entityId: e.id,
          message: `'${key}' is not a property of type ${type.name}`,
          hint: `add { name: ${key} } to the properties of ${type.name} in schema.yaml, or remove/rename the key`,
        });
      }
    }
    return out;
  },
};
