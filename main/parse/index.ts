/** Public surface of main/parse. */
export * from './types.js';
export { parseNote, fieldRefs, DEFAULT_MAX_BYTES, type ParseOptions } from './parse.js';
