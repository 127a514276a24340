/**
 * The implementation of the contract (shared/contract.ts) over a CoreSession,
 * shared by the web shell and the Electron shell. One file per handler group;
 * a new group adds its file and one spread below (the `Handlers` type insists).
 */
import type { Handlers } from '../../../shared/contract.js';
import type { CoreSession } from '../../core/index.js';
import { appGroup, vaultGroup, schemaGroup } from './vault.js';
import { entityGroup, searchGroup, graphGroup, problemsGroup } from './entity.js';
import { editGroup } from './edit.js';
import { timelineGroup } from './timeline.js';
import { canvasGroup } from './canvas.js';
import { mcpGroup } from './mcp.js';
import { assetGroup } from './assets.js';
import { schemaSetupGroup } from './schema-setup.js';
import { viewGroup } from './view.js';

export function createHandlers(session: CoreSession): Handlers {
  return {
    ...appGroup(session),
    ...vaultGroup(session),
    ...schemaGroup(session),
    ...entityGroup(session),
    ...searchGroup(session),
    ...graphGroup(session),
    ...problemsGroup(session),
    ...editGroup(session),
    ...timelineGroup(session),
    ...canvasGroup(session),
    ...mcpGroup(session),
    ...assetGroup(session),
    ...schemaSetupGroup(session),
    ...viewGroup(session),
  } satisfies Handlers;
}
