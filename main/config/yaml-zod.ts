/**
 * Validates a YAML file against a zod schema with line-numbered, repairable errors.
 *
 * Every zod issue becomes a Problem naming the file, the line of the offending
 * YAML node and what was expected. Invalid parts are repaired by falling back
 * to defaults for the broken part only: an unknown key is dropped (warning), a
 * bad list element (an entity type, a property, a rule...) is dropped, a bad
 * top-level key takes its default. So a typo in one property never costs the
 * whole schema.
 */
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Document, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
import type { Problem } from '../../shared/types.js';

export interface YamlSource {
  doc: Document | null;
  lines: LineCounter;
  /** the plain JS value, or undefined when the YAML is broken */
  value: unknown;
}

export function readYaml(text: string, file: string, problems: Problem[]): YamlSource {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true });
  if (doc.errors.length > 0) {
    for (const e of doc.errors.slice(0, 5)) {
      problems.push({
        severity: 'error', code: 'yaml-syntax', file, line: e.linePos?.[0]?.line ?? 1,
        message: `${file}: malformed YAML: ${e.message.split('\n')[0]}`,
        hint: 'fix the YAML; until then defaults are used for this file',
      });
    }
    return { doc: null, lines, value: undefined };
  }
  let value: unknown;
  try { value = doc.toJS({ maxAliasCount: 2000 }); } catch (err) {
    problems.push({ severity: 'error', code: 'yaml-syntax', file, line: 1, message: `${file}: ${err instanceof Error ? err.message : String(err)}` });
    return { doc: null, lines, value: undefined };
  }
  return { doc, lines, value: value ?? {} };
}

type Path = ReadonlyArray<PropertyKey>;

/** The YAML node at `path`, or its deepest existing ancestor. With `key`, the key node of that map entry. */
function nodeAt(doc: Document, path: Path, key?: string): YamlNode | null {
  let node: unknown = doc.contents;
  let found = node as YamlNode | null;
  const segs = key === undefined ? path : [...path, key];
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (pair && key !== undefined && i === segs.length - 1) return pair.key as YamlNode;
      next = pair?.value ?? (pair ? pair.key : undefined);
    } else if (isSeq(node) && typeof seg === 'number') next = node.items[seg];
    if (next === undefined || next === null) break;
    node = next;
    found = next as YamlNode;
  }
  return found;
}

export function lineOf(src: YamlSource, path: Path, key?: string): number {
  if (!src.doc) return 1;
  const n = nodeAt(src.doc, path, key);
  const off = n?.range?.[0];
  return off === undefined ? 1 : src.lines.linePos(off).line;
}

export function pathText(path: Path): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : (s ? '.' : '') + String(p);
  return s || '(top level)';
}

interface Issue { code: string; path: PropertyKey[]; message: string; keys?: string[] }

function getAt(root: unknown, path: Path): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p as string];
  }
  return v;
}

/**
 * Parses `value` with `schema`; on failure reports each issue and repairs the
 * value (drop unknown keys, drop the deepest bad list element, else reset the
 * top-level key) until it parses. Falls back to `schema.parse({})`.
 */
export function validateRepair<T>(schema: z.ZodType<T>, src: YamlSource, file: string, problems: Problem[]): T {
  let value: unknown = src.value === undefined ? {} : structuredClone(src.value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ severity: 'error', code: 'config-invalid', file, line: 1, message: `${file}: expected a mapping of keys to values at the top level` });
    value = {};
  }
  const reported = new Set<string>();
  for (let round = 0; round < 8; round++) {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    const removals = new Map<unknown[], Set<number>>();
    for (const raw of r.error.issues as unknown as Issue[]) {
      const path = raw.path;
      const sig = `${raw.code}:${path.join('.')}:${(raw.keys ?? []).join(',')}`;
      if (raw.code === 'unrecognized_keys') {
        const obj = getAt(value, path) as Record<string, unknown> | undefined;
        for (const k of raw.keys ?? []) {
          if (!reported.has(sig + k)) {
            reported.add(sig + k);
            problems.push({
              severity: 'warning', code: 'config-unknown-key', file, line: lineOf(src, path, k), field: k,
              message: `${file}: ${pathText(path)}: unknown key '${k}' (ignored)`,
              hint: 'check the spelling against docs/schema.md',
            });
          }
          if (obj && typeof obj === 'object') delete obj[k];
        }
        continue;
      }
      if (!reported.has(sig)) {
        reported.add(sig);
        problems.push({
          severity: 'error', code: 'config-invalid', file, line: lineOf(src, path), field: pathText(path),
          message: `${file}: ${pathText(path)}: ${raw.message}`,
          hint: 'this entry is ignored until fixed',
        });
      }
      let idx = -1;
      for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'number') { idx = i; break; }
      if (idx >= 0) {
        const arr = getAt(value, path.slice(0, idx));
        if (Array.isArray(arr)) {
          const set = removals.get(arr) ?? new Set<number>();
          set.add(path[idx] as number);
          removals.set(arr, set);
        }
      } else if (path.length > 0) {
        delete (value as Record<string, unknown>)[path[0] as string];
      } else {
        value = {};
      }
    }
    for (const [arr, set] of removals) {
      for (const index of [...set].sort((a, b) => b - a)) if (index < arr.length) arr.splice(index, 1);
    }
  }
  return schema.parse({});
}
