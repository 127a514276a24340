import type {
  entityHandlers, graphHandlers, problemsHandlers, searchHandlers,
} from '../../../shared/contract.js';
import { encodeGraph } from '../../../shared/graph-compact.js';
import type { CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';
import { reads } from './view.js';

export function entityGroup(session: CoreSession): Group<typeof entityHandlers> {
  return {
    'entity-get': async ({ nameOrId, type, layer, audience }) => reads(session, audience).getEntity(nameOrId, { type, layer }),
    'entity-list': async ({ audience, ...filter }) => reads(session, audience).list(filter),
    'entity-suggest': async ({ prefix, limit, audience }) => reads(session, audience).suggest(prefix, limit),
  };
}

export function searchGroup(session: CoreSession): Group<typeof searchHandlers> {
  return {
    'search-query': async ({ text, audience, ...opts }) => (text.trim() ? reads(session, audience).search(text, opts) : []),
  };
}

export function graphGroup(session: CoreSession): Group<typeof graphHandlers> {
  return {
    'graph-snapshot': async ({ layer, audience }) => reads(session, audience).graph(layer ? { layer } : undefined),
    'graph-compact': async ({ layer, audience }) => encodeGraph(await reads(session, audience).graph(layer ? { layer } : undefined)),
    'relations-get': async ({ nameOrId, audience, ...opts }) => reads(session, audience).relations(nameOrId, opts),
  };
}

export function problemsGroup(session: CoreSession): Group<typeof problemsHandlers> {
  return { 'problems-list': async ({ audience }) => reads(session, audience).problems() };
}
