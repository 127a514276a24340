/**
 * Rename planning: the note moves to `<same folder>/<new name>.md` (its title
 * field follows when it has one) and every reference to it is rewritten —
 * frontmatter values (links and plain names) and body [[links]] — keeping link
 * shape (folder prefix, .md, #heading, |label). References through an alias
 * still resolve and are left as they are.
 */
import { posix } from 'node:path';
import { normaliseName } from '../../shared/names.js';
import { CoreError } from '../domain/errors.js';
import type { EditContext } from './context.js';
import { fieldNames, getBody, mapStrings, readFrontmatter, replaceBody, setField } from './frontmatter.js';
import { rewriteBodyLinks, rewriteLinksInString } from './links.js';
import type { Plan } from './relations.js';
import { checkEntityName } from './rules.js';
import { checkFiles, type FileChange } from './tx.js';

export async function planRename(ctx: EditContext, oldName: string, newName: string): Promise<Plan & { path: string }> {
  const e = ctx.find(oldName);
  const n = checkEntityName(newName);
  const clash = ctx.model.resolve(n, e.layer);
  if (clash && clash.id !== e.id && !clash.placeholder && clash.layer === e.layer) {
    throw new CoreError('conflict', `${n} already exists in layer ${e.layer} (${clash.path})`, { name: n, path: clash.path });
  }
  const dir = posix.dirname(e.path);
  const newPath = (dir === '.' ? '' : dir + '/') + n + '.md';
  const oldKeys = new Set([normaliseName(e.name), normaliseName(posix.basename(e.path, '.md'))]);
  const schema = ctx.model.schema();
  const skip = new Set(['tags', 'aliases', 'alias', 'type', schema.title_field]);
  const mentions = (v: unknown): boolean => {
    const s = JSON.stringify(v ?? '').normalize('NFC').toLowerCase().replace(/\s+/g, ' ');
    return [...oldKeys].some((k) => s.includes(k));
  };
  const rewrite = (text: string, layer: string): string => {
    const match = (l: { name: string; target: string }) => oldKeys.has(normaliseName(l.name)) && ctx.model.resolve(l.target, layer)?.id === e.id;
    let out = text;
    const fm = readFrontmatter(out);
    for (const key of fieldNames(out)) {
      // only keys whose value mentions the old name are re-parsed and rewritten
      if (skip.has(key) || !mentions(fm[key])) continue;
      out = mapStrings(out, key, (s) => {
        if (s.includes('[[')) return rewriteLinksInString(s, match, n);
        const t = s.trim();
        const seg = t.slice(t.lastIndexOf('/') + 1).replace(/\.md$/i, '');
        if (!match({ name: seg, target: t })) return undefined;
        return s.slice(0, s.indexOf(t)) + t.slice(0, t.length - seg.length - (/\.md$/i.test(t) ? 3 : 0)) + n + (/\.md$/i.test(t) ? t.slice(-3) : '') ;
      });
    }
    const body = getBody(out);
    const nb = rewriteBodyLinks(body, match, n);
    return nb === body ? out : replaceBody(out, nb);
  };
  const files: FileChange[] = [];
  const selfBefore = await ctx.current(e.path);
  let selfAfter = rewrite(selfBefore, e.layer);
  if (typeof readFrontmatter(selfAfter)[schema.title_field] === 'string') selfAfter = setField(selfAfter, schema.title_field, n);
  if (newPath === e.path) {
    files.push({ path: e.path, before: selfBefore, after: selfAfter });
  } else {
    await checkFiles(ctx.vaultDir, [{ path: newPath, expect: null, mine: selfAfter }], 'already (refusing to overwrite)');
    files.push({ path: newPath, before: null, after: selfAfter }, { path: e.path, before: selfBefore, after: null });
  }
  for (const p of ctx.model.referrers(e.id)) {
    if (p === e.path) continue;
    const layer = ctx.model.layerOf(p) ?? e.layer;
    files.push(await ctx.edit(p, (t) => rewrite(t, layer)));
  }
  return { label: `rename ${e.name} to ${n}`, files, path: newPath };
}
