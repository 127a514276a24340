/**
 * The bottom of main/: the one error type the domain raises on purpose and its
 * closed set of codes (one spelling per meaning). Shells map codes once to
 * HTTP / MCP / CLI exit codes at their edge; messages are for humans.
 * This module imports nothing from main/.
 */
export type ErrorCode =
  // a name, id, file or thing asked for does not exist
  | 'not-found'
  // input that does not fit the schema, the contract or the command
  | 'invalid'
  | 'bad-arguments'
  | 'bad-cursor'
  | 'bad-uri'
  | 'bad-config'
  | 'schema'
  | 'unknown-type'
  | 'unknown-relationship'
  | 'unknown-layer'
  | 'too-large'
  // a file changed on disk since it was read, or a command raced another
  | 'conflict'
  // a path outside the vault, a write in read-only mode, a players' view asking for GM data
  | 'forbidden'
  | 'outside-vault'
  | 'cypher-refused'
  // time and cancellation
  | 'timeout'
  | 'cancelled'
  // the vault and its database
  | 'vault-missing'
  | 'vault-locked'
  | 'no-vault'
  | 'unavailable'
  | 'store-open'
  | 'store-locked'
  | 'store-closed'
  | 'store-rebuild'
  | 'store-rebuild-changed'
  | 'store-load-failed'
  // Kùzu's buffer pool is too small for the vault (LORECRAFT_KUZU_BUFFER_MB)
  | 'store-out-of-memory'
  | 'store-duplicate-id'
  | 'store-dangling-edge'
  | 'store-bad-identifier'
  // a bug: never raised on purpose for bad input
  | 'internal';

/** Errors the core raises on purpose; `code` is stable, `message` is for humans, `details` names the file/field. */
export class CoreError extends Error {
  constructor(public readonly code: ErrorCode, message: string, public readonly details?: Record<string, unknown>) {
    super(message);
    this.name = 'CoreError';
  }
}

export function isCoreError(err: unknown): err is CoreError {
  return err instanceof CoreError;
}
