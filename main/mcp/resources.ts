/**
 * Resources (each entity as markdown at lore://entity/{layer}/{name}) and the
 * session-prep prompt.
 */
import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CoreError } from '../domain/errors.js';
import { CHARS_PER_TOKEN, clip } from './budget.js';
import type { McpContext } from './context.js';
import { escapesVault, LayerZ } from './schemas.js';

/** At most this many entities are listed by resources/list (the SDK does not paginate template lists). */
export const RESOURCE_LIST_CAP = 1000;

export function entityUri(layer: string, name: string): string {
  return `lore://entity/${encodeURIComponent(layer)}/${encodeURIComponent(name)}`;
}

/** Read a vault-relative file, refusing anything (.., absolute, symlink) that resolves outside the vault. */
export async function readInVault(vaultDir: string, rel: string): Promise<string> {
  if (escapesVault(rel) || isAbsolute(rel)) throw new CoreError('outside-vault', `path "${rel}" is outside the vault`);
  const root = await realpath(vaultDir);
  const real = await realpath(resolve(root, rel));
  const r = relative(root, real);
  if (r.startsWith('..') || isAbsolute(r)) throw new CoreError('outside-vault', `path "${rel}" resolves outside the vault`);
  return readFile(real, 'utf8');
}

/** An entity of the players' view as markdown: its visible properties as frontmatter, then its text. */
function asMarkdown(e: { name: string; type: string | null; placeholder: boolean; aliases: string[]; properties: Record<string, unknown>; body: string }): string {
  if (e.placeholder) return `# ${e.name}\n\n(placeholder: referenced by other notes but no note exists yet)\n`;
  const fm = [`title: ${JSON.stringify(e.name)}`, ...(e.type ? [`type: ${JSON.stringify(e.type)}`] : []), ...(e.aliases.length ? [`aliases: ${JSON.stringify(e.aliases)}`] : []),
    ...Object.entries(e.properties).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)];
  return `---\n${fm.join('\n')}\n---\n${e.body}`;
}

const one = (x: string | string[] | undefined) => decodeURIComponent(Array.isArray(x) ? x[0] ?? '' : x ?? '');

export function registerResources(server: McpServer, ctx: McpContext): void {
  const { host } = ctx;
  const template = new ResourceTemplate('lore://entity/{layer}/{name}', {
    list: async () => {
      const r = await host.list({ limit: RESOURCE_LIST_CAP });
      return {
        resources: r.items.map((e) => ({
          uri: entityUri(e.layer, e.name), name: e.name, title: `${e.name} (${e.type ?? 'untyped'}, ${e.layer})`, mimeType: 'text/markdown',
        })),
      };
    },
  });
  server.registerResource('entity', template, {
    title: 'Lore entity', description: 'An entity\'s note as markdown (frontmatter and text), by layer and name.', mimeType: 'text/markdown',
  }, async (uri, vars) => {
    const layer = one(vars.layer);
    const name = one(vars.name);
    if (!LayerZ.safeParse(layer).success) throw new CoreError('bad-uri', `"${layer}" is not a layer name`);
    if (!name || escapesVault(name) || name.length > 200) throw new CoreError('bad-uri', `"${name}" is not an entity name`);
    const e = await host.getEntity(name, { layer });
    if (!e) throw new CoreError('not-found', `no entity "${name}" in layer ${layer}`);
    // players: the note as their view renders it (the file holds the GM's secrets)
    const text = ctx.audience === 'players' ? asMarkdown(e)
      : e.path ? await readInVault(host.vaultDir, e.path)
      : `# ${e.name}\n\n(placeholder: referenced by other notes but no note exists yet)\n`;
    const c = clip(text, ctx.budgetTokens * CHARS_PER_TOKEN);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: c.clipped ? `${c.text}\n\n[clipped to the output budget]` : c.text }] };
  });
}

export function registerPrompts(server: McpServer, ctx: McpContext): void {
  const campaign = ctx.host.config().layers.filter((l) => !l.canonical).map((l) => l.name);
  server.registerPrompt('session_prep', {
    title: 'Prepare the next session',
    description: 'Walk through the campaign state and prepare the next session: recap, open threads, who is where, scenes to expect.',
    argsSchema: {
      layer: z.string().max(64).optional().describe(`campaign layer (${campaign.join(', ') || 'none defined'})`),
      session: z.string().max(10).optional().describe('the session being prepared (number)'),
      focus: z.string().max(500).optional().describe('places, characters or threads to focus on'),
    },
  }, (a) => {
    const layer = a.layer || campaign[0] || 'the campaign layer';
    const s = a.session ? Number.parseInt(a.session, 10) : NaN;
    const last = Number.isFinite(s) ? `up to session ${s - 1}` : 'so far';
    const text = [
      `Help me prepare ${Number.isFinite(s) ? `session ${s}` : 'the next session'} of the campaign in layer "${layer}" of my Lorecraft vault.`,
      `1. Call get_timeline(layer: "${layer}"${Number.isFinite(s) ? `, to_session: ${s - 1}` : ''}) and write a short recap of what happened ${last}, citing the event files.`,
      '2. List the open threads: consequences not yet followed up, characters whose state changed (use get_current_state for the key ones).',
      a.focus ? `3. Focus on: ${a.focus}. Use lookup to resolve names, then load_scene_context for each likely scene.` : '3. Pick the two or three likeliest scenes and call load_scene_context for each.',
      '4. Run get_problems and check_consistency on anything you plan to introduce, so nothing contradicts the notes.',
      '5. Finish with a one-page prep sheet: recap, scenes (location, who is there, what they want), secrets and clues, and the files you relied on.',
      'Quote the vault; do not invent facts. If something is unknown, say so and suggest a note to write.',
    ].join('\n');
    return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  });
}
