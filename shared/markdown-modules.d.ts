// Ambient declarations for markdown-it plugins that ship no (usable) types (both are `md.use(plugin)` plugins).
declare module 'markdown-it-mark' {
  import type { PluginSimple } from 'markdown-it';
  const mark: PluginSimple;
  export default mark;
}
declare module 'markdown-it-obsidian-callouts' {
  import type { PluginWithOptions } from 'markdown-it';
  const callouts: PluginWithOptions<{ icons?: Record<string, string> }>;
  export default callouts;
}
// (@types/markdown-it-footnote types its plugin against markdown-it's CommonJS typings, which do not match the ESM ones)
declare module 'markdown-it-footnote' {
  import type { PluginSimple } from 'markdown-it';
  const footnote: PluginSimple;
  export default footnote;
}
