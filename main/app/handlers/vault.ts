import type { Handlers, appHandlers, schemaHandlers, vaultHandlers } from '../../../shared/contract.js';
import { DEFAULT_STATUS_FIELDS, type CoreSession } from '../../core/index.js';

/** The handlers of one contract group. */
export type Group<G> = Pick<Handlers, keyof G & keyof Handlers>;

export function appGroup(_session: CoreSession): Group<typeof appHandlers> {
  return { 'app-ready': async (_req, ctx) => ({ transport: ctx.transport }) };
}

export function vaultGroup(session: CoreSession): Group<typeof vaultHandlers> {
  return {
    'vault-status': async () => session.info(),
    'vault-open': async ({ path }) => session.open(path),
    'vault-sync': async ({ full }) => session.current().sync({ full }),
  };
}

export function schemaGroup(session: CoreSession): Group<typeof schemaHandlers> {
  return {
    'schema-get': async () => {
      const schema = session.current().schema();
      const styles = schema.ui?.types ?? {};
      return {
        entityTypes: schema.entity_types.map((t) => ({ name: t.name, ...styles[t.name] })),
        relationshipTypes: schema.relationship_types.map((r) => ({
          name: r.name, symmetric: r.symmetric, ...(r.inverse ? { inverse: r.inverse } : {}),
          ...(r.properties?.length ? { properties: r.properties.map((p) => ({ name: p.name, type: p.type, ...(p.values ? { values: p.values } : {}) })) } : {}),
        })),
        eventType: schema.events?.type ?? 'event',
        statusFields: schema.events?.status_fields ?? [...DEFAULT_STATUS_FIELDS],
      };
    },
  };
}
