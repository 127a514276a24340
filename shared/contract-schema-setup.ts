/**
 * The `schema-setup-*` handler group: the "set up types" panel offered when a
 * vault has no schema (main/core/schema-setup.ts, docs/schema.md "Inferring a schema").
 * propose -> preview (after each rename / merge / drop / rule pick) -> accept.
 * Accept never overwrites blindly: an existing schema.yaml comes back as a diff
 * (`needs-confirm`) and is replaced only when `confirm[file]` is the reviewed hash.
 * After a write the shell reopens the vault (a `vault-opened` push follows).
 */
import { z } from 'zod';
import { handler } from './schemas.js';

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const Rule = z.enum(['folder', 'tag', 'both']);

export const ProposedTypeZ = z.object({
  id: z.string(),
  name: z.string(),
  folder: z.string().optional(),
  tag: z.string().optional(),
  field: z.string().optional(),
  rule: Rule,
  keep: z.boolean(),
  ruleCounts: z.object({ folder: z.number().optional(), tag: z.number().optional(), field: z.number().optional() }),
});
export type ProposedTypeView = z.infer<typeof ProposedTypeZ>;

export const InferredTypeZ = z.object({
  name: z.string(),
  count: z.number(),
  examples: z.array(z.string()),
  from: z.array(z.string()),
  properties: z.array(z.object({
    name: z.string(), type: z.string(), values: z.array(Scalar).optional(), items: z.string().optional(), count: z.number(),
  }).passthrough()),
  relations: z.array(z.object({
    field: z.string(), relationship: z.string(), target_type: z.union([z.string(), z.array(z.string())]).optional(), count: z.number(),
  }).passthrough()),
});
export type InferredTypeView = z.infer<typeof InferredTypeZ>;

export const FilePlanZ = z.object({
  file: z.string(),
  status: z.enum(['new', 'same', 'differs']),
  text: z.string(),
  diff: z.string().optional(),
  hash: z.string().optional(),
});
export type FilePlanView = z.infer<typeof FilePlanZ>;

export const SetupViewZ = z.object({
  candidates: z.array(ProposedTypeZ),
  types: z.array(InferredTypeZ),
  summary: z.object({ notes: z.number(), types: z.record(z.string(), z.number()), untyped: z.number(), relationships: z.array(z.string()) }),
  text: z.string(),
  files: z.array(FilePlanZ),
});
export type SetupViewData = z.infer<typeof SetupViewZ>;

export const TypeChoiceZ = z.object({ id: z.string().min(1), name: z.string(), rule: Rule.optional(), keep: z.boolean() }).strict();
export type TypeChoiceView = z.infer<typeof TypeChoiceZ>;

export const schemaSetupHandlers = {
  /** the proposal for the open vault, with the files accept would write */
  'schema-setup-propose': handler(z.object({}).strict(), SetupViewZ),
  /** the schema and per-type counts after the GM's choices */
  'schema-setup-preview': handler(z.object({ choices: z.array(TypeChoiceZ) }).strict(), SetupViewZ),
  /** write schema.yaml (and lorecraft.yaml when absent); confirm: file -> sha256 of the reviewed content */
  'schema-setup-accept': handler(
    z.object({ choices: z.array(TypeChoiceZ), confirm: z.record(z.string(), z.string()).optional() }).strict(),
    z.object({
      files: z.array(z.object({ file: z.string(), status: z.enum(['written', 'unchanged', 'needs-confirm']) })),
      reload: z.boolean(),
      pending: z.array(FilePlanZ),
    }),
  ),
};
