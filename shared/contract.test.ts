import { describe, expect, it } from 'vitest';
import { CHANNELS, EVENT_NAMES, contract, type CallContext, type Handlers } from './contract.js';
import {
  ApiError, createClient, createEmitter, registerHandlers, type ClientTransport, type Reply, type ServerTransport,
} from './rpc.js';
import type { EntityView, SyncStatus } from './types.js';

const status: SyncStatus = { state: 'idle', entities: 1, relationships: 0, placeholders: 0, problems: 0, lastSync: null };
const mira: EntityView = {
  id: 'setting/mira', name: 'Mira', type: 'npc', layer: 'setting', path: 'npcs/Mira.md', hash: 'abc', tags: [],
  aliases: [], properties: { status: 'alive' }, body: 'Hi', placeholder: false,
  relations: [{ type: 'MEMBER_OF', label: 'MEMBER_OF', direction: 'out', field: 'faction', source: 'npcs/Mira.md',
    other: { id: 'setting/guild', name: 'Guild', type: 'faction', layer: 'setting', path: null, placeholder: true, tags: [] } }],
};

/** A handler table for exercising the wire machinery (the real one is main/app/handlers). */
function table(overrides: Partial<Handlers> = {}): Handlers {
  const notUsed = async () => { throw Object.assign(new Error('not used in this test'), { code: 'not-used' }); };
  const info = { vaultDir: '/v', project: 'p', layers: [], status };
  return {
    ...(Object.fromEntries(CHANNELS.map((c) => [c, notUsed])) as unknown as Handlers),
    'app-ready': async (_r, ctx) => ({ transport: ctx.transport }),
    'vault-status': async () => info,
    'vault-open': notUsed, 'vault-sync': notUsed, 'schema-get': notUsed,
    'entity-get': async (r) => (r.nameOrId === 'Mira' ? mira : null),
    'entity-list': notUsed, 'entity-suggest': notUsed, 'search-query': notUsed,
    'graph-snapshot': notUsed, 'relations-get': notUsed, 'problems-list': async () => [],
    ...overrides,
  };
}

/** An in-memory transport pair: what goes in one end comes out the other, as JSON. */
function memoryPair(ctx: CallContext) {
  const routes = new Map<string, (p: unknown, c: CallContext) => Promise<Reply>>();
  const listeners = new Set<{ event: string; fn: (p: unknown) => void }>();
  const server: ServerTransport = { handle: (ch, fn) => void routes.set(ch, fn) };
  const client: ClientTransport = {
    async invoke(ch, payload) {
      const fn = routes.get(ch);
      if (!fn) return { ok: false, error: { code: 'unknown-channel', message: ch } };
      return JSON.parse(JSON.stringify(await fn(JSON.parse(JSON.stringify(payload ?? {})), ctx))) as Reply;
    },
    subscribe(event, fn) {
      const l = { event, fn };
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
  const send = (event: string, payload: unknown) => {
    for (const l of listeners) if (l.event === event) l.fn(payload);
  };
  return { server, client, routes, send };
}

describe('contract', () => {
  it('names every channel domain-verb and every event too', () => {
    for (const name of [...CHANNELS, ...EVENT_NAMES]) expect(name).toMatch(/^[a-z]+(-[a-z]+)+$/);
    expect(CHANNELS).toEqual(expect.arrayContaining(['vault-open', 'vault-status', 'entity-get', 'entity-list',
      'search-query', 'graph-snapshot', 'relations-get', 'problems-list']));
  });

  it('registers every channel of the contract on the transport', () => {
    const pair = memoryPair({ transport: 'ws' });
    registerHandlers(pair.server, table());
    expect([...pair.routes.keys()].sort()).toEqual(Object.keys(contract).sort());
  });

  it('round-trips a valid call and its response', async () => {
    const pair = memoryPair({ transport: 'ipc' });
    registerHandlers(pair.server, table());
    const api = createClient(pair.client);
    expect(await api.call('entity-get', { nameOrId: 'Mira' })).toEqual(mira);
    expect(await api.call('entity-get', { nameOrId: 'Nobody' })).toBeNull();
    expect(await api.call('app-ready', {})).toEqual({ transport: 'ipc' });
  });

  it('refuses an invalid request naming the field, without calling the handler', async () => {
    const pair = memoryPair({ transport: 'ws' });
    let called = false;
    registerHandlers(pair.server, table({ 'entity-get': async () => { called = true; return null; } }));
    const reply = await pair.client.invoke('entity-get', { nameOrId: 42 });
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.code).toBe('bad-request');
      expect(reply.error.message).toContain('nameOrId');
    }
    const extra = await pair.client.invoke('problems-list', { sneaky: true });
    expect(extra.ok).toBe(false);
    expect(called).toBe(false);
  });

  it('refuses a sender that is not allowed', async () => {
    const pair = memoryPair({ transport: 'ipc', senderUrl: 'https://evil.example/' });
    registerHandlers(pair.server, table(), { allowSender: (c) => c.senderUrl?.startsWith('file://') ?? false });
    await expect(createClient(pair.client).call('vault-status', {})).rejects.toMatchObject({ code: 'forbidden-sender' });
  });

  it('passes a coded domain error through and reports a bad response as bad-response', async () => {
    const pair = memoryPair({ transport: 'ws' });
    const errors: string[] = [];
    registerHandlers(pair.server, table({
      'entity-get': async () => { throw Object.assign(new Error('no vault open'), { code: 'no-vault' }); },
      'problems-list': async () => [{ severity: 'fatal' }] as never,
    }), { onError: (ch) => errors.push(ch) });
    const api = createClient(pair.client);
    const err = await api.call('entity-get', { nameOrId: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'no-vault', message: 'no vault open' });
    await expect(api.call('problems-list', {})).rejects.toMatchObject({ code: 'bad-response' });
    expect(errors).toEqual(['problems-list']);
  });

  it('emits validated events that subscribers can unsubscribe from', () => {
    const pair = memoryPair({ transport: 'ws' });
    const api = createClient(pair.client);
    const emit = createEmitter(pair.send);
    const seen: string[][] = [];
    const off = api.on('vault-changed', (e) => seen.push(e.paths));
    emit('vault-changed', { origin: 'disk', paths: ['a.md'], upserted: [], removed: [] });
    off();
    emit('vault-changed', { origin: 'disk', paths: ['b.md'], upserted: [], removed: [] });
    expect(seen).toEqual([['a.md']]);
    expect(() => emit('sync-status', { ...status, state: 'exploded' } as never)).toThrow(/sync-status.*state/);
  });
});
