/**
 * The `schema-setup-*` group (shared/contract-schema-setup.ts) over the core's
 * SchemaSetup. After accept writes a file the vault is reopened: the new schema's
 * fingerprint rebuilds the graph and the `vault-opened` push re-types the UI.
 */
import type { schemaSetupHandlers } from '../../../shared/contract-schema-setup.js';
import type { CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';

export function schemaSetupGroup(session: CoreSession): Group<typeof schemaSetupHandlers> {
  return {
    'schema-setup-propose': async () => session.current().schemaSetup().propose(),
    'schema-setup-preview': async ({ choices }) => session.current().schemaSetup().preview(choices),
    'schema-setup-accept': async ({ choices, confirm }) => {
      const core = session.current();
      const res = await core.schemaSetup().accept(choices, confirm);
      if (res.reload) await session.open(core.vaultDir);
      return res;
    },
  };
}
