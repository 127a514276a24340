import type { CliIo } from '../io.js';

// Placeholder until the owning work lands: says so and fails.
export async function run(_argv: string[], io: CliIo): Promise<number> {
  io.err('lorecraft validate: not implemented yet');
  return 1;
}
