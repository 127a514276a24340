/**
 * The one wrapper every MCP tool goes through: runs the handler, renders the
 * structured result as text beside `structuredContent`, enforces the output
 * budget, and maps domain errors (CoreError, zod) to `isError` results with a
 * clear message, so a bad call never takes the server down.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z, ZodError } from 'zod';
import { CoreError } from '../domain/errors.js';
import { CHARS_PER_TOKEN } from './budget.js';

export interface ToolOutput {
  /** one human line: what was found, and whether more pages exist */
  summary: string;
  data: Record<string, unknown>;
}

export interface ToolSpec<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Omit<ToolAnnotations, 'title'>;
  /** signal: aborted when the client cancels the request (notifications/cancelled) */
  run: (args: z.infer<z.ZodObject<I>>, call: { signal?: AbortSignal }) => Promise<ToolOutput>;
}

export const READ_ONLY: ToolSpec<z.ZodRawShape, z.ZodRawShape>['annotations'] = {
  readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false,
};

/** Human message for any error a tool may raise. */
export function errorMessage(err: unknown): string {
  if (err instanceof CoreError) return `${err.message} [${err.code}]`;
  if (err instanceof ZodError) {
    return 'invalid arguments: ' + err.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  }
  if (err instanceof Error) return `internal error: ${err.message}`;
  return `internal error: ${String(err)}`;
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function registerTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  server: McpServer,
  spec: ToolSpec<I, O>,
  opts: { budgetTokens: number; log: (line: string) => void },
): void {
  const maxChars = opts.budgetTokens * CHARS_PER_TOKEN;
  const cb = async (args: z.infer<z.ZodObject<I>>, extra?: { signal?: AbortSignal }): Promise<CallToolResult> => {
    try {
      const out = await spec.run(args, { ...(extra?.signal ? { signal: extra.signal } : {}) });
      const text = `${out.summary}\n${JSON.stringify(out.data)}`;
      if (text.length + JSON.stringify(out.data).length > maxChars) {
        // Tools size themselves to the budget; reaching this is a bug, never a flood.
        opts.log(`mcp: ${spec.name} result over budget (${text.length} chars) — refused`);
        return errorResult(`${spec.name}: the result is larger than the output budget (${opts.budgetTokens} tokens); narrow the query (filters, smaller depth or limit)`);
      }
      return { content: [{ type: 'text', text }], structuredContent: out.data };
    } catch (err) {
      if (!(err instanceof CoreError) && !(err instanceof ZodError)) {
        opts.log(`mcp: ${spec.name} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      }
      return errorResult(`${spec.name}: ${errorMessage(err)}`);
    }
  };
  server.registerTool(spec.name, {
    title: spec.title,
    description: spec.description,
    inputSchema: spec.input,
    outputSchema: spec.output,
    annotations: { title: spec.title, ...spec.annotations },
  }, cb as never);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySpec = ToolSpec<any, any>;

/** Declare a tool with its argument types inferred from the input shape. */
export function tool<I extends z.ZodRawShape, O extends z.ZodRawShape>(spec: ToolSpec<I, O>): AnySpec {
  return spec as unknown as AnySpec;
}
