/**
 * Test fixture shared by the full-text tests (fts-text.test.ts, fts-bulk.test.ts): texts that make a tokenizer
 * replica disagree with Kùzu's if it splits, folds case or drops stop words differently. Test-only.
 */
export const AWKWARD_TEXTS: readonly string[] = [
  'The Harbour-Master\'s ledger: 1,204 crowns owed (see [[Guild of Tides|the guild]]).',
  'ΟΔΟΣ and Οδός: Greek capital sigma at a word end; İstanbul, STRASSE, Straße, ÉCOLE, naïve café.',
  '\u212A is the Kelvin sign, which lower-cases to k; \u212Aelvin too. ﬁre uses a ligature.',
  'Line\nbreaks\r\nand\ttabs stay inside tokens:   several   spaces, trailing space ',
  'Stop words in capitals: THE About ABOVE, and a\'s, ain\'t, c\'mon — em-dash, “quotes”, ‘single’.',
  'Back\\slash and emoji 🐉 dragons, #tag #Type/NPC, http://example.org/path?x=1&y=2 and e-mail a@b.c',
  'digits123mixed 42nd 3.14 x=y+z [brackets] {braces} <angles> |pipes| ~tilde~ `code` "double"',
  '', '   ', '!!!', 'a an the of', 'running runs ran runner guilds guild guilded', '日本語のテキスト と 中文 混合',
];
