/** The export formats (contract-view.ts's `export-run`), in a module without zod: the renderer's export dialog lists them. */
export const EXPORT_FORMAT_NAMES = ['site', 'lorebook', 'json', 'mermaid', 'dot'] as const;
