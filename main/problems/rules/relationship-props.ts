/**
 * Relationship properties against schema.yaml (`relationship-property`): a
 * value of the wrong type for a property the relationship type declares, on
 * either side's map item. Undeclared keys are kept (in `props`) and not
 * reported; `since` / `until` are read by the timeline.
 */
import type { Problem } from '../../../shared/types.js';
import { valueMismatch } from '../../config/validate.js';
import type { Rule } from '../types.js';
import { schemaIndex } from '../fields.js';

export const relationshipProperty: Rule = {
  code: 'relationship-property',
  defaultSeverity: 'warning',
  origin: 'problems',
  summary: 'a relationship property whose value does not fit its declared type (schema.yaml relationship_types: properties)',
  hint: 'write a value of the declared type, or change the declaration',
  check({ model }) {
    const ix = schemaIndex(model.schema());
    const out: Problem[] = [];
    for (const e of model.edges()) {
      if (!e.properties && !e.inverseProperties) continue;
      const defs = model.schema().relationship_types.find((r) => r.name === e.type)?.properties ?? [];
      if (!defs.length) continue;
      for (const props of [e.properties, e.inverseProperties]) {
        if (!props) continue;
        for (const def of defs) {
          const expected = valueMismatch(def, props[def.name], ix.calendar);
          if (!expected) continue;
          out.push({
            severity: this.defaultSeverity, code: this.code, file: e.source, line: e.line, ...(e.field ? { field: e.field } : {}),
            message: `${e.type} property '${def.name}' should be ${expected}, not ${JSON.stringify(props[def.name])}`,
            hint: `write ${def.name}: <${expected}> in the relationship's map item`,
          });
        }
      }
    }
    return out;
  },
};
