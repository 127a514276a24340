/**
 * Test support for handler groups: a real core (Kùzu) on a fresh temp copy of the
 * sample world behind a CoreSession, and calls through `dispatch` (zod in and out),
 * exactly as the wire does. Registers its own beforeAll/afterAll; the fields are
 * filled when the suite starts.
 */
import { afterAll, beforeAll } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openCore } from '../../core/index.js';
import { CoreSession } from '../../core/index.js';
import { createHandlers } from './index.js';
import { dispatch } from '../../../shared/rpc.js';
import type { Channel, Req, Res } from '../../../shared/contract.js';

export const SAMPLE_WORLD = resolve(import.meta.dirname, '../../../resources/sample-world');

export interface SampleSession {
  /** the temp folder holding `vault/` (tests may put other files beside it) */
  dir: string;
  vault: string;
  session: CoreSession;
  /** a call that must succeed; a refusal throws an Error carrying the wire error's code and details */
  call<C extends Channel>(ch: C, req: Req<C>): Promise<Res<C>>;
  /** a call that must be refused; returns the wire error */
  refusal(ch: Channel, req: unknown): Promise<{ code: string; message: string; details?: unknown }>;
}

/** `source`: the vault copied (default the sample world) */
export function sampleSession(prefix: string, source: string = SAMPLE_WORLD): SampleSession {
  const h = {} as SampleSession;
  h.call = async (ch, req) => {
    const r = await dispatch(ch, req, { transport: 'ws' }, createHandlers(h.session));
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code, details: r.error.details });
    return r.value as Res<typeof ch>;
  };
  h.refusal = async (ch, req) => {
    const r = await dispatch(ch, req, { transport: 'ws' }, createHandlers(h.session));
    if (r.ok) throw new Error(`${ch} was not refused`);
    return r.error;
  };
  beforeAll(async () => {
    h.dir = await mkdtemp(join(tmpdir(), prefix));
    h.vault = join(h.dir, 'vault');
    await cp(source, h.vault, { recursive: true, filter: (s) => !s.includes('.lorecraft') });
    h.session = new CoreSession(() => undefined, (v) => openCore({ vaultDir: v, watch: false }));
    await h.session.open(h.vault);
  }, 60_000);
  afterAll(async () => {
    await h.session?.close();
    if (h.dir) await rm(h.dir, { recursive: true, force: true });
  });
  return h;
}
