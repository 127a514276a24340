/**
 * Dangling references: every link (frontmatter field or body [[link]]) that
 * ends on a placeholder, i.e. names a note that does not exist. One problem per
 * referring file and line, so each can be fixed where it is written.
 */
import type { Problem } from '../../../shared/types.js';
import type { Rule } from '../types.js';

export const danglingLink: Rule = {
  code: 'dangling-link',
  defaultSeverity: 'warning',
  origin: 'problems',
  summary: 'a link or relationship field names a note that does not exist (a placeholder)',
  hint: 'create the note, fix the spelling, or add the name as an alias of the intended note',
  check({ model }) {
    const out: Problem[] = [];
    for (const p of model.entities()) {
      if (!p.placeholder) continue;
      for (const e of model.edgesTo(p.id)) {
        const from = model.entity(e.from);
        out.push({
          severity: this.defaultSeverity, code: this.code, file: e.source, line: e.line,
          ...(e.field !== null ? { field: e.field } : {}),
          ...(from ? { entityId: from.id } : {}),
          message: `${e.field !== null ? `${e.field}: ` : ''}'${p.name}' does not resolve to any note in layer ${p.layer} or the layers it depends on`,
          hint: `create a note named '${p.name}', fix the link, or add '${p.name}' to the aliases of the intended note`,
        });
      }
      // inverse-mapped fields store the edge placeholder -> declarer
      for (const e of model.edgesFrom(p.id)) {
        const to = model.entity(e.to);
        out.push({
          severity: this.defaultSeverity, code: this.code, file: e.source, line: e.line,
          ...(e.field !== null ? { field: e.field } : {}),
          ...(to ? { entityId: to.id } : {}),
          message: `${e.field !== null ? `${e.field}: ` : ''}'${p.name}' does not resolve to any note in layer ${p.layer} or the layers it depends on`,
          hint: `create a note named '${p.name}', fix the link, or add '${p.name}' to the aliases of the intended note`,
        });
      }
    }
    return out;
  },
};
