/**
 * A note's markdown (or one block of it: the editor's read-only blocks), rendered as Obsidian shows it (markdown.ts) and sanitised,
 * with its embeds filled in (embeds.ts). Clicks: a wikilink or an embed opens
 * that entity (`onOpen`), a footnote anchor scrolls within the text, external
 * links open outside the app (target=_blank; Electron hands them to the OS).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useApp } from '../../store/index.js';
import { api } from '../../api/client.js';
import { renderProse, type RenderOptions } from './markdown.js';
import { fillEmbeds } from './embeds.js';
import './prose.css';

let basePromise: Promise<string> | null = null;
let knownBase: string | null = null;
/** where the shell serves vault images (asked once: the same for every vault); '' when the shell cannot say */
function assetBase(): Promise<string> {
  basePromise ??= api.call('vault-asset-base', {}).then((r) => (knownBase = r.base)).catch(() => { basePromise = null; return ''; });
  return basePromise;
}

/** null until the base is known (the prose waits, so images never load from a wrong URL) */
export function useAssetUrl(): RenderOptions['assetUrl'] | null {
  const [base, setBase] = useState<string | null>(knownBase);
  useEffect(() => {
    if (knownBase !== null) return;
    let live = true;
    void assetBase().then((b) => { if (live) setBase(b); });
    return () => { live = false; };
  }, []);
  return useMemo(() => (base === null ? null : base ? (ref: string) => base + encodeURIComponent(ref) : undefined), [base]);
}

export function RenderedProse({ body, name, onOpen, testId = 'entity-prose', className = 'prose', title, onDoubleClick }: {
  body: string;
  /** the note's own name: an embed of it is a cycle */
  name: string;
  /** open an entity (a wikilink or an embed clicked); absent: wikilink clicks bubble to the parent */
  onOpen?(nameOrId: string): void;
  testId?: string;
  className?: string;
  title?: string;
  onDoubleClick?(): void;
}) {
  const assetUrl = useAssetUrl();
  const ref = useRef<HTMLElement>(null);
  const opts = useMemo<RenderOptions>(() => (assetUrl ? { assetUrl } : {}), [assetUrl]);
  const html = useMemo(() => (assetUrl === null ? '' : renderProse(body, opts)), [body, opts, assetUrl]);

  useEffect(() => {
    const root = ref.current;
    if (!root || !html) return;
    const fill = () => fillEmbeds(root, {
      get: async (target) => {
        const e = await api.call('entity-get', { nameOrId: target, audience: useApp.getState().audience });
        return e && !e.placeholder ? { id: e.id, name: e.name, body: e.body } : null;
      },
      render: (md) => renderProse(md, opts),
    }, [name]);
    void fill();
    // an embedded note changed (or a missing one may have appeared): those embeds are filled again
    return api.on('vault-changed', (e) => {
      const changed = new Set([...e.upserted, ...e.removed]);
      let stale = false;
      for (const el of Array.from(root.querySelectorAll<HTMLElement>('.embed[data-embed-state]'))) {
        const id = el.getAttribute('data-entity-id');
        if (el.getAttribute('data-embed-state') === 'missing' || (id && changed.has(id))) {
          // refill from the outermost embed holding it, so depth and cycles are counted from the note again
          let top = el;
          for (let up = el.parentElement?.closest<HTMLElement>('.embed'); up && root.contains(up); up = up.parentElement?.closest<HTMLElement>('.embed')) top = up;
          top.querySelector(':scope > .embed-body')?.remove();
          top.removeAttribute('data-embed-state');
          top.removeAttribute('data-entity-id');
          stale = true;
        }
      }
      if (stale) void fill();
    });
  }, [html, name, opts]);

  return (
    <article
      ref={ref}
      className={className}
      data-testid={testId}
      title={title}
      onDoubleClick={onDoubleClick}
      data-rendered={html ? 'true' : 'false'}
      onClick={(e) => {
        const t = e.target as HTMLElement;
        const a = t.closest('a');
        if (a?.classList.contains('wikilink')) {
          if (!onOpen) return;
          e.preventDefault();
          onOpen(a.getAttribute('data-wikilink') ?? '');
          return;
        }
        const href = a?.getAttribute('href');
        if (a && href?.startsWith('#')) {
          e.preventDefault();
          ref.current?.querySelector(`[id="${CSS.escape(href.slice(1))}"]`)?.scrollIntoView({ block: 'nearest' });
          return;
        }
        if (a || t.closest('summary')) return;
        const embed = t.closest<HTMLElement>('.embed[data-entity-id]');
        if (embed && onOpen) onOpen(embed.getAttribute('data-entity-id')!);
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
