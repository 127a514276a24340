/**
 * The `view-*` and `export-run` group (shared/contract-view.ts), and `reads()`: the core's reads for the
 * audience a request names — the players' whenever the app's view is the players' (a request cannot ask
 * its way out of it).
 */
import type { viewHandlers } from '../../../shared/contract-view.js';
import type { AudienceName } from '../../../shared/contract-view.js';
import type { CoreHost, CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';

/** 'players' when the request or the app's view says so */
export function audienceOf(core: CoreHost, asked?: AudienceName): AudienceName {
  return asked === 'players' || core.audience === 'players' ? 'players' : 'gm';
}

/** the reads as `asked` (or the app's players' view) sees them, at the view's layer and session */
export function reads(session: CoreSession, asked?: AudienceName) {
  const core = session.current();
  return core.view({ audience: audienceOf(core, asked) });
}

export function viewGroup(session: CoreSession): Group<typeof viewHandlers> {
  const state = () => {
    const core = session.current();
    const at = core.viewAt();
    return { audience: core.audience, layer: at.layer, session: at.session };
  };
  return {
    'view-set': async ({ audience, layer, session: at }) => {
      session.current().setAudience(audience, { layer: layer ?? null, session: at ?? null });
      return state();
    },
    'view-get': async () => state(),
    'export-run': async ({ out, ...o }) => {
      const { result, written } = await session.current().exportTo({
        format: o.format, audience: o.audience, ...(o.layer ? { layer: o.layer } : {}), session: o.session ?? null,
        ...(o.focus ? { focus: o.focus } : {}), ...(o.depth ? { depth: o.depth } : {}),
      }, out);
      return { format: result.format, audience: result.audience, layer: result.layer, session: result.session, entities: result.entities, written, out };
    },
  };
}
