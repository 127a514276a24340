// Ambient declaration for cytoscape-edgehandles (no bundled types); the API used is typed in controller.ts.
declare module 'cytoscape-edgehandles' {
  import type { Ext } from 'cytoscape';
  const edgehandles: Ext;
  export default edgehandles;
}

// graphology-layout-forceatlas2's own iteration and default settings (CommonJS, no bundled types for these
// files), run on typed arrays by layout-fa2.ts
declare module 'graphology-layout-forceatlas2/iterate.js' {
  export default function iterate(settings: Record<string, unknown>, nodes: Float32Array, edges: Float32Array): unknown;
}
declare module 'graphology-layout-forceatlas2/defaults.js' {
  const defaults: Record<string, number | boolean>;
  export default defaults;
}
