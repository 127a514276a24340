/**
 * The rule registry: every problem code Lorecraft reports, who finds it, its
 * default severity. Rules computed here are listed in COMPUTED_RULES; the others
 * are found by the parser, config loader, model or timeline and gathered.
 * A gathered problem keeps the severity its producer gave it unless the schema
 * overrides the code (the defaults below document what producers use).
 */
import type { Rule, RuleInfo } from './types.js';
import { orphan, relationshipTargetType } from './rules/graph.js';
import { duplicateAlias } from './rules/names.js';
import { unknownProperty } from './rules/schema-props.js';
import { relationshipProperty } from './rules/relationship-props.js';
import { deadParticipant, participantBeforeCreation } from './rules/continuity.js';
import { overlappingRulers } from './rules/rulers.js';

const g = (code: string, defaultSeverity: RuleInfo['defaultSeverity'], origin: RuleInfo['origin'], summary: string, hint: string): RuleInfo =>
  ({ code, defaultSeverity, origin, summary, hint });

/** Problems found elsewhere and gathered by validate(). */
export const GATHERED_RULES: RuleInfo[] = [
  // parser (main/parse)
  g('yaml-syntax', 'error', 'parse', 'the frontmatter is not valid YAML', 'fix the YAML at the line shown'),
  g('frontmatter-not-mapping', 'error', 'parse', 'the frontmatter is YAML but not a key: value mapping', 'write the frontmatter as key: value lines'),
  g('frontmatter-unclosed', 'warning', 'parse', 'a --- frontmatter block is never closed', 'add the closing --- line'),
  g('encoding', 'error', 'parse', 'the file is not valid UTF-8', 'save the file as UTF-8'),
  g('binary', 'error', 'parse', 'the .md file contains binary data', 'remove the file or exclude it in lorecraft.yaml'),
  g('too-large', 'error', 'parse', 'the file is larger than the parser accepts', 'split the note or exclude it'),
  g('parse-failed', 'error', 'parse', 'the parser could not read the file', 'check the file is readable text'),
  // walking the vault (main/sync)
  g('read-failed', 'error', 'parse', 'a file or folder of the vault cannot be read', 'check its permissions'),
  g('symlink-loop', 'warning', 'parse', 'a symbolic link loops: skipped', 'remove or fix the link'),
  g('symlink-outside', 'warning', 'parse', 'a symbolic link leads outside the vault: not followed', 'move the target into the vault, or ignore this'),
  g('broken-symlink', 'warning', 'parse', 'a symbolic link named .md points nowhere: skipped', 'fix or remove the link'),
  g('not-a-file', 'warning', 'parse', 'a .md name leads to a pipe or a device, not a file: skipped', 'remove the link'),
  // lorecraft.yaml / schema.yaml (main/config)
  g('config-invalid', 'error', 'config', 'lorecraft.yaml or schema.yaml has a value of the wrong shape (that part falls back to its default)', 'fix the value at the line shown'),
  g('config-unknown-key', 'warning', 'config', 'lorecraft.yaml or schema.yaml has a key Lorecraft does not know', 'remove or fix the key'),
  g('config-reference', 'error', 'config', 'the config names something that does not exist (a layer, type or relationship)', 'fix the name'),
  g('config-missing', 'error', 'config', 'a --config / --schema file given on the command line does not exist', 'fix the path'),
  g('config-unreadable', 'error', 'config', 'lorecraft.yaml or schema.yaml cannot be read', 'check the file permissions'),
  // schema values (config validateProperties)
  g('property-type', 'error', 'config', 'a property value has the wrong type (e.g. text where an integer is declared)', 'write a value of the declared type'),
  g('enum-value', 'error', 'config', 'a property value is not one of the enum values', 'use one of the allowed values, or add it to values in schema.yaml'),
  g('required-missing', 'warning', 'config', 'a property declared required: true (without a default) is missing or empty', 'add the property to the frontmatter'),
  // model (main/model)
  g('unknown-type', 'error', 'model', 'a note names an entity type the schema does not define', 'fix the type, or add the type to schema.yaml'),
  g('duplicate-name', 'warning', 'model', 'two notes with the same name in one layer (the later one is kept apart as <id>#2)', 'rename one of the notes (or give it a distinct title)'),
  g('dangling-link', 'warning', 'model', 'a link or relationship field names no note (a placeholder stands in); one problem per referring file and line', 'create the note, or fix the spelling'),
  g('part-of-cycle', 'error', 'model', 'a relationship type marked hierarchy: true (PART_OF-like) loops back on itself', 'remove one link of the cycle'),
  // timeline (main/timeline)
  g('cross-layer-edit', 'error', 'timeline', 'a campaign-layer note redefines an entity of a layer it depends on instead of recording an event', 'record the change as an event consequence'),
  g('layer-unknown-dependency', 'error', 'timeline', 'depends_on names a layer that is not configured', 'fix depends_on in lorecraft.yaml'),
  g('layer-cycle', 'error', 'timeline', 'layers depend on each other in a loop', 'remove one depends_on in lorecraft.yaml'),
  g('event-session', 'warning', 'timeline', 'an event has no usable session number (its consequences are not applied)', 'add session: N'),
  g('calendar-date', 'warning', 'timeline', "a date the world's calendar (lorecraft.yaml calendar:) cannot read", 'write a date of the calendar: 15 Frostfall 1203 AR, 1203-05-14, c. 1200 AR'),
  g('event-consequence', 'error', 'timeline', 'a consequence item is malformed', 'see docs/timeline.md for the consequence kinds'),
  g('event-unknown-entity', 'error', 'timeline', 'a consequence names an entity that does not exist', 'check the name, or create the note'),
  g('event-unknown-relationship', 'error', 'timeline', 'a consequence names an unknown relationship type', 'use a relationship type from schema.yaml'),
  g('event-unknown-property', 'warning', 'timeline', "a consequence changes a property the entity's type does not declare", 'declare the property in schema.yaml or fix the name'),
  g('event-enum-value', 'warning', 'timeline', 'a consequence sets an enum property to a value not allowed', 'use an allowed value'),
  g('event-not-list', 'warning', 'timeline', 'a consequence adds to / removes from a property that is not a list', 'use value: to set it'),
  g('event-relationship-types', 'warning', 'timeline', 'a consequence adds a relationship the schema does not declare between those types', 'add a field mapping, or pick another relationship'),
];

/** Rules computed by this module, in the order they run. */
export function computedRules(): Rule[] {
  return [
    unknownProperty,
    relationshipProperty,
    orphan,
    duplicateAlias,
    relationshipTargetType,
    deadParticipant,
    participantBeforeCreation,
    overlappingRulers,
  ];
}

/** Problems about validate itself. */
export const META_RULES: RuleInfo[] = [
  g('unknown-rule', 'warning', 'problems', "schema.yaml rules: names a code no rule reports", 'fix the code (see docs/validate.md)'),
  g('rule-failed', 'error', 'problems', 'a rule crashed while checking (a bug: please report it)', 'turn the rule off meanwhile'),
];

export function allRules(): RuleInfo[] {
  const byCode = new Map<string, RuleInfo>();
  for (const r of [...GATHERED_RULES, ...computedRules(), ...META_RULES]) {
    if (!byCode.has(r.code)) byCode.set(r.code, { code: r.code, defaultSeverity: r.defaultSeverity, origin: r.origin, summary: r.summary, hint: r.hint });
  }
  return [...byCode.values()];
}
