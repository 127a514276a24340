/** Public surface of main/config: the contract (types), the loader, the compiled schema view, validation. */
export * from './types.js';
export { loadVaultConfig, defaultConfig, defaultSchema, CONFIG_FILE, SCHEMA_FILE, type LoadOptions, type LoadedVaultConfig } from './load.js';
export { compileSchema, schemaFingerprint, type SchemaIndex, type MappingInfo, type RelationshipInfo, type AllowedRelationship, type TypeResolution, type SchemaEvents } from './schema-index.js';
export { validateProperties, isDateLike } from './validate.js';
export { vaultFilter, type VaultFilter } from './layers.js';
export { proposeSchema, buildSchema, typeNameOf, type Proposal, type ProposedType, type TypeChoice, type BuiltSchema, type InferredType, type InferSummary } from './infer.js';
