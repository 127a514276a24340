/// <reference types="vite/client" />
// Ambient declarations for renderer-only modules without bundled types.
declare module 'cytoscape-fcose' {
  import type { Ext } from 'cytoscape';
  const fcose: Ext;
  export default fcose;
}
