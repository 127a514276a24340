/** Output of the note parser (pure: bytes in, ParsedNote out; never throws). */
import type { Problem } from '../../shared/types.js';

export interface WikiLink {
  /** the target as written, without [[ ]], heading and label: 'folder/Target' */
  target: string;
  /** last path segment without .md: what is matched against names, file names and aliases */
  name: string;
  heading?: string;
  label?: string;
  /** frontmatter field it was found in; undefined for a body link */
  field?: string;
  /** 1-based line in the file */
  line: number;
}

/** A frontmatter value that names another note: a [[wikilink]] or a plain string. */
export interface FieldRef {
  field: string;
  /** the name to resolve (wikilink name, or the plain string trimmed) */
  name: string;
  /** was it written as [[...]] */
  wikilink: boolean;
  target: string;
  line: number;
  /** a map item (`{ to: "[[X]]", attitude: wary }`): the relationship's own properties (every key but `to`) */
  props?: Record<string, unknown>;
}

export interface ParsedNote {
  /** vault-relative posix path */
  path: string;
  /** sha256 hex of the raw bytes */
  hash: string;
  /** file name without .md */
  basename: string;
  /** parsed frontmatter mapping; {} when absent or broken */
  frontmatter: Record<string, unknown>;
  /** 1-based line of each top-level frontmatter key */
  fieldLines: Record<string, number>;
  hasFrontmatter: boolean;
  /** body text (after the closing ---), as written */
  body: string;
  /** 1-based line where the body starts */
  bodyLine: number;
  /** display name: frontmatter title_field, else basename */
  title: string;
  aliases: string[];
  /** tags from frontmatter and inline #tags, without '#', deduplicated, original case */
  tags: string[];
  /** wikilinks in the body */
  bodyLinks: WikiLink[];
  /** wikilinks found anywhere in frontmatter values */
  fieldLinks: WikiLink[];
  /** problems found while parsing (yaml-syntax, encoding, binary, too-large...) */
  problems: Problem[];
}
