import type {
  entityHandlers, graphHandlers, problemsHandlers, searchHandlers,
} from '../../../shared/contract.js';
import type { CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';

export function entityGroup(session: CoreSession): Group<typeof entityHandlers> {
  return {
    'entity-get': async ({ nameOrId, type, layer }) => session.current().getEntity(nameOrId, { type, layer }),
    'entity-list': async (filter) => session.current().list(filter),
    'entity-suggest': async ({ prefix, limit }) => session.current().suggest(prefix, limit),
  };
}

export function searchGroup(session: CoreSession): Group<typeof searchHandlers> {
  return {
    'search-query': async ({ text, ...opts }) => (text.trim() ? session.current().search(text, opts) : []),
  };
}

export function graphGroup(session: CoreSession): Group<typeof graphHandlers> {
  return {
    'graph-snapshot': async ({ layer }) => session.current().graph(layer ? { layer } : undefined),
    'relations-get': async ({ nameOrId, ...opts }) => session.current().relations(nameOrId, opts),
  };
}

export function problemsGroup(session: CoreSession): Group<typeof problemsHandlers> {
  return { 'problems-list': async () => session.current().problems() };
}
