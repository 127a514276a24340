/**
 * "Would zod's parse give this value back unchanged?" — answered without copying it.
 *
 * zod's parse of an object or array builds a new one (unknown keys of a stripping object left out), so
 * validating a big answer (10k list entries, 34k canvas edges) copies every object of it: much of the work and
 * the garbage of the players' view switch. `sameAfterParse(schema, v)` walks `v` against the schema and says
 * SAME only when zod's parse would succeed with a deep-equal value whose objects have the same keys (nothing
 * stripped, nothing defaulted, nothing transformed): then `v` itself may go on the wire in place of zod's copy.
 * Every other answer (INVALID: zod would refuse it; DIFFERS: zod would strip a key, substitute a default, or
 * this walker does not know the construct) sends the caller to zod's own parse, which strips or refuses as it
 * always did — so an unknown key (a lens-internal field) never reaches the wire through this path.
 *
 * Understood exactly: object (strip, strict, or a catchall), array, record with plain string keys, optional,
 * nullable, union (first option that succeeds, as zod's), string, number, boolean, literal, enum, null,
 * unknown, any. Anything else (checks such as min(1), custom, transforms, pipes, defaults, lazy…) is asked of
 * zod on that sub-value alone (`safeParse`): SAME when it succeeds and gives back the very same value (so a
 * leaf refinement costs a zod call, an object under a transform a copy: DIFFERS).
 */
import type { z } from 'zod';

/** zod's parse would give `v` back (deep-equal, same keys) */
export const SAME = 0;
/** zod's parse would fail on `v` */
export const INVALID = 1;
/** anything else: zod's output may differ from `v` (stripped, defaulted, transformed) or this walker cannot tell */
export const DIFFERS = 2;
export type Verdict = typeof SAME | typeof INVALID | typeof DIFFERS;

type Check = (v: unknown) => Verdict;

interface Internals {
  def: Record<string, unknown> & { type: string; checks?: unknown[] };
  optin?: string;
  optout?: string;
  traits?: Set<string>;
}
const internals = (s: z.ZodType): Internals => (s as unknown as { _zod: Internals })._zod;

const compiled = new WeakMap<z.ZodType, Check>();

/** the walker of one schema, made once per schema instance */
export function checkerOf(schema: z.ZodType): Check {
  let c = compiled.get(schema);
  if (!c) {
    // a placeholder while compiling, so that a schema reached again through itself (z.lazy is not walked: this
    // only guards against a shape that refers back) is asked of zod
    compiled.set(schema, (v) => viaZod(schema, v));
    c = compile(schema);
    compiled.set(schema, c);
  }
  return c;
}

/** the verdict for `v` against `schema` (see the module's comment) */
export function verdict(schema: z.ZodType, v: unknown): Verdict {
  return checkerOf(schema)(v);
}

/** would `schema.safeParse(v)` succeed and give `v` back unchanged? (false: ask zod) */
export function sameAfterParse(schema: z.ZodType, v: unknown): boolean {
  return verdict(schema, v) === SAME;
}

/** zod's own answer for a sub-value: SAME only when its output is the very value given */
function viaZod(schema: z.ZodType, v: unknown): Verdict {
  const r = schema.safeParse(v);
  if (!r.success) return INVALID;
  return r.data === v ? SAME : DIFFERS;
}

const plainProto = (v: object): boolean => {
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
};

function compile(schema: z.ZodType): Check {
  const zi = internals(schema);
  const def = zi.def;
  const generic: Check = (v) => viaZod(schema, v);
  // checks (refinements, min/max…) and coercion: zod's own run, on this sub-value only
  if ((def.checks && def.checks.length) || def.coerce) return generic;
  switch (def.type) {
    case 'string': return (v) => (typeof v === 'string' ? SAME : INVALID);
    case 'boolean': return (v) => (typeof v === 'boolean' ? SAME : INVALID);
    case 'number': return (v) => (typeof v === 'number' && Number.isFinite(v) ? SAME : INVALID);
    case 'null': return (v) => (v === null ? SAME : INVALID);
    case 'unknown':
    case 'any': return () => SAME;
    case 'literal': {
      const values = def.values as unknown[] | undefined;
      if (!Array.isArray(values) || values.some((x) => typeof x !== 'string' && typeof x !== 'boolean' && x !== null && !(typeof x === 'number' && Number.isFinite(x)))) return generic;
      const set = new Set(values);
      return (v) => (set.has(v) ? SAME : generic(v));
    }
    case 'enum': {
      const entries = def.entries as Record<string, unknown> | undefined;
      if (!entries) return generic;
      const values = Object.values(entries);
      if (values.some((x) => typeof x !== 'string')) return generic;
      const set = new Set(values);
      return (v) => (typeof v === 'string' && set.has(v) ? SAME : generic(v));
    }
    case 'optional': {
      // .optional(): undefined passes as it is, unless the inner schema substitutes a default; an exact optional
      // refuses undefined (zod's run then decides)
      if (zi.traits?.has('$ZodExactOptional')) return generic;
      const inner = def.innerType as z.ZodType;
      if (internals(inner).optin === 'defaulted') return generic;
      const ci = checkerOf(inner);
      return (v) => (v === undefined ? SAME : ci(v));
    }
    case 'nullable': {
      const ci = checkerOf(def.innerType as z.ZodType);
      return (v) => (v === null ? SAME : ci(v));
    }
    case 'array': {
      const ce = checkerOf(def.element as z.ZodType);
      return (v) => {
        if (!Array.isArray(v)) return INVALID;
        let out: Verdict = SAME;
        for (let i = 0; i < v.length; i++) {
          const r = ce(v[i]);
          if (r === INVALID) return INVALID;
          if (r !== SAME) out = DIFFERS;
        }
        return out;
      };
    }
    case 'union': {
      // zod: the first option that succeeds gives the answer. SAME only when every option before it surely fails
      if (def.inclusive === false) return generic; // z.xor: exactly one must match
      const options = (def.options as z.ZodType[]).map((o) => checkerOf(o));
      return (v) => {
        for (const o of options) {
          const r = o(v);
          if (r !== INVALID) return r;
        }
        return INVALID;
      };
    }
    case 'record': {
      const keyType = def.keyType as z.ZodType;
      const ki = internals(keyType);
      // plain string keys only (an enum's or a refined key's rules are zod's), and zod's default mode
      if (ki.def.type !== 'string' || (ki.def.checks && ki.def.checks.length) || ki.def.coerce || def.mode === 'loose') return generic;
      const cv = checkerOf(def.valueType as z.ZodType);
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return INVALID;
        if (!plainProto(v)) return generic(v);
        if (Object.getOwnPropertySymbols(v).length) return DIFFERS;
        let out: Verdict = SAME;
        for (const k in v) {
          if (!Object.hasOwn(v, k) || k === '__proto__') return DIFFERS;
          const r = cv((v as Record<string, unknown>)[k]);
          if (r === INVALID) return INVALID;
          if (r !== SAME) out = DIFFERS;
        }
        return out;
      };
    }
    case 'object': return compileObject(schema, def);
    default: return generic;
  }
}

function compileObject(schema: z.ZodType, def: Internals['def']): Check {
  const shape = def.shape as Record<string, z.ZodType>;
  if (Object.getOwnPropertySymbols(shape).length) return (v) => viaZod(schema, v);
  const keys = Object.keys(shape);
  if (keys.includes('__proto__')) return (v) => viaZod(schema, v);
  const keySet = new Set(keys);
  const checks = keys.map((k) => checkerOf(shape[k]!));
  // an absent key: left out by zod when its schema is optional in and out; refused when it is not optional at all
  const absent: Verdict[] = keys.map((k) => {
    const zi = internals(shape[k]!);
    if (zi.optin === 'optional' && zi.optout === 'optional') return SAME;
    if (zi.optin === undefined) return INVALID;
    return DIFFERS;
  });
  const catchall = def.catchall as z.ZodType | undefined;
  const catchallType = catchall ? internals(catchall).def.type : null;
  const cc = catchall && catchallType !== 'never' ? checkerOf(catchall) : null;
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return INVALID;
    if (!plainProto(v)) return DIFFERS;
    const o = v as Record<string, unknown>;
    let out: Verdict = SAME;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const r = k in o ? checks[i]!(o[k]) : absent[i]!;
      if (r === INVALID) return INVALID;
      if (r !== SAME) out = DIFFERS;
    }
    // keys the shape does not declare: stripped by zod (DIFFERS), refused by a strict object, or the catchall's
    for (const k in o) {
      if (keySet.has(k)) continue;
      if (!catchall) return DIFFERS;
      if (catchallType === 'never') return INVALID;
      if (k === '__proto__' || !Object.hasOwn(o, k)) return DIFFERS;
      const r = cc!(o[k]);
      if (r === INVALID) return INVALID;
      if (r !== SAME) out = DIFFERS;
    }
    // (an own symbol key is not looked at: zod's object leaves it out, and neither JSON nor a structured clone
    // carries one, so the wire is the same)
    return out;
  };
}
