// Ambient declaration for cytoscape-edgehandles (no bundled types); the API used is typed in controller.ts.
declare module 'cytoscape-edgehandles' {
  import type { Ext } from 'cytoscape';
  const edgehandles: Ext;
  export default edgehandles;
}
