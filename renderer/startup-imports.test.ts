/**
 * What the renderer's start-up bundle holds: the modules main.tsx reaches through static imports (type-only
 * imports and dynamic import() excluded — those are erased or become chunks of their own). A big graph's first
 * picture waits for this bundle to be parsed and run (issue 19 point 2), so neither zod (the main side validates
 * the contract) nor the prose editor (Tiptap, ProseMirror: loaded when an editor opens) may be reached from it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

/** static, value-carrying import specifiers of a source file (`import type` and `import(...)` left out) */
export function staticImports(src: string): string[] {
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm;
  for (let m = re.exec(src); m; m = re.exec(src)) if (!m[1]) out.push(m[2]!);
  return out;
}

function resolveLocal(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const f of [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base]) if (existsSync(f) && /\.(ts|tsx)$/.test(f)) return f;
  return null;
}

/** the packages (bare specifiers) and local files main.tsx reaches statically */
function reach(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>(), packages = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop()!;
    if (files.has(f)) continue;
    files.add(f);
    for (const spec of staticImports(readFileSync(f, 'utf8'))) {
      if (spec.startsWith('.')) { const r = resolveLocal(f, spec); if (r) todo.push(r); } else packages.add(spec);
    }
  }
  return { files, packages };
}

describe('the renderer start-up bundle', () => {
  it('reads static imports as the bundler does (types and dynamic imports left out)', () => {
    expect(staticImports([
      "import { a } from './a.js';", "import type { B } from './b.js';", "import './c.css';", "export { d } from './d.js';",
      "export type { E } from './e.js';", "const f = () => import('./f.js');", "import {\n  g,\n  h,\n} from 'pkg';",
    ].join('\n'))).toEqual(['./a.js', './c.css', './d.js', 'pkg']);
  });

  it('reaches neither zod nor the prose editor', () => {
    const { files, packages } = reach(join(here, 'main.tsx'));
    // the walk sees the app (a broken walk would pass vacuously)
    expect([...files].some((f) => f.endsWith(join('canvas', 'Canvas.tsx')))).toBe(true);
    expect(packages.has('cytoscape')).toBe(true);
    const banned = [...packages].filter((p) => p === 'zod' || p.startsWith('zod/') || p.startsWith('@tiptap/') || p.startsWith('prosemirror'));
    expect(banned).toEqual([]);
    expect([...files].filter((f) => f.includes(join('editor', 'prose')))).toEqual([]);
  });
});
