/**
 * zod building blocks for MCP tool inputs and outputs. Every string has a
 * maximum length so an oversized argument is refused by validation (an
 * `isError` result naming the field) before it reaches the core.
 */
import { z } from 'zod';
import { EntitySummaryZ, RelationViewZ, TraversalStepZ } from '../../shared/schemas.js';

export const MAX_NAME = 200;
export const MAX_QUERY = 500;
export const MAX_CYPHER = 4000;
export const MAX_TEXT = 20_000;
export const MAX_CURSOR = 300;

/** true when a name or reference tries to point outside the vault (.. segment, absolute path, NUL). */
export function escapesVault(s: string): boolean {
  if (s.includes('\0')) return true;
  if (/^(?:[A-Za-z]:)?[\\/]/.test(s) || /^~[\\/]/.test(s)) return true;
  return s.split(/[\\/]/).some((seg) => seg.trim() === '..');
}

/** An entity name or reference (name, alias, id, or vault-relative path). */
export const NameZ = z.string().trim().min(1, 'must not be empty').max(MAX_NAME, `at most ${MAX_NAME} characters`)
  .refine((s) => !escapesVault(s), 'must not point outside the vault (no "..", absolute paths or NUL)');

/** A name for a new note: also no path separators, since it becomes a file name. */
export const NewNameZ = NameZ.refine((s) => !/[\\/:*?"<>|\0]/.test(s) && s !== '.' && !s.startsWith('.'),
  'must be a plain name without / \\ : * ? " < > | and not start with "."');

export const LayerZ = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, 'a layer name: letters, digits, _ . - only');
export const TypeNameZ = z.string().min(1).max(64).regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'an entity type name from the schema');
export const RelTypeZ = z.string().min(1).max(64).regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a relationship type name from the schema');
export const TagZ = z.string().min(1).max(100);
export const CursorZ = z.string().min(1).max(MAX_CURSOR).describe('next_cursor from a previous call with the same arguments');
export const SessionZ = z.number().int().min(0).max(1_000_000);

export const ScalarZ = z.union([z.string().max(MAX_TEXT), z.number(), z.boolean(), z.null()]);
export const PropValueZ = z.union([ScalarZ, z.array(ScalarZ).max(200)]);
export const PropsZ = z.record(z.string().min(1).max(100), PropValueZ)
  .refine((r) => Object.keys(r).length <= 100, 'at most 100 properties');

// ---------------------------------------------------------------- outputs

export { EntitySummaryZ };

/** a relation seen from one end: the contract's own schema */
export const RelationZ = RelationViewZ;

/** a traversal step: the contract's own schema */
export { TraversalStepZ };

/** Every paginated result carries these. */
export const PageFieldsZ = {
  total: z.number().int(),
  offset: z.number().int(),
  next_cursor: z.string().nullable(),
  truncated: z.boolean(),
};

export const ChangeZ = z.object({ path: z.string(), diff: z.string(), diff_truncated: z.boolean() });
export const WriteOutZ = {
  paths: z.array(z.string()),
  changed: z.array(ChangeZ),
  entity: EntitySummaryZ.nullable(),
};
