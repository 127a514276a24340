/**
 * The rule registry: every problem code Lorecraft reports, who finds it, its
 * default severity. Rules computed here are listed in COMPUTED_RULES; the others
 * are found by the parser, config loader, model or timeline and gathered.
 * A gathered problem keeps the severity its producer gave it unless the schema
 * overrides the code (the defaults below document what producers use).
 */
import type { Rule, RuleInfo } from './types.js';
import { danglingLink } from './rules/dangling.js';
import { hierarchyCycleRule, orphan, relationshipTargetType } from './rules/graph.js';
import { duplicateAlias } from './rules/names.js';
import { unknownProperty } from './rules/schema-props.js';
import { deadParticipant, overlappingRulers, participantBeforeCreation } from './rules/continuity.js';

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
  // schema values (config validateProperties)
  g('property-type', 'error', 'config', 'a property value has the wrong type (e.g. text where an integer is declared)', 'write a value of the declared type'),
  g('enum-value', 'error', 'config', 'a property value is not one of the enum values', 'use one of the allowed values, or add it to values in schema.yaml'),
  g('missing-required', 'error', 'config', 'a property declared required: true is missing', 'add the property to the frontmatter'),
  // model (main/model)
  g('unknown-type', 'warning', 'model', 'a note names an entity type the schema does not define', 'fix the type, or add the type to schema.yaml'),
  g('duplicate-name', 'error', 'model', 'two notes with the same name in one layer', 'rename one of the notes (or move it to another layer)'),
  g('part-of-cycle', 'error', 'model', 'a containment relationship loops back on itself', 'remove one of the links in the loop'),
  // timeline (main/timeline)
  g('cross-layer-edit', 'error', 'timeline', 'a campaign-layer note redefines an entity of a layer it depends on instead of recording an event', 'record the change as an event consequence'),
  g('layer-unknown-dependency', 'error', 'timeline', 'depends_on names a layer that is not configured', 'fix depends_on in lorecraft.yaml'),
  g('layer-cycle', 'error', 'timeline', 'layers depend on each other in a loop', 'remove one depends_on in lorecraft.yaml'),
  g('event-session', 'warning', 'timeline', 'an event has no usable session number (its consequences are not applied)', 'add session: N'),
  g('event-consequence', 'error', 'timeline', 'a consequence item is malformed', 'see docs/timeline.md for the consequence kinds'),
  g('event-unknown-entity', 'error', 'timeline', 'a consequence names an entity that does not exist', 'check the name, or create the note'),
  g('event-unknown-relationship', 'error', 'timeline', 'a consequence names an unknown relationship type', 'use a relationship type from schema.yaml'),
  g('event-unknown-property', 'warning', 'timeline', "a consequence changes a property the entity's type does not declare", 'declare the property in schema.yaml or fix the name'),
  g('event-enum-value', 'warning', 'timeline', 'a consequence sets an enum property to a value not allowed', 'use an allowed value'),
  g('event-not-list', 'warning', 'timeline', 'a consequence adds to / removes from a property that is not a list', 'use value: to set it'),
  g('event-relationship-types', 'warning', 'timeline', 'a consequence adds a relationship the schema does not declare between those types', 'add a field mapping, or pick another relationship'),
];

/** Rules computed by this module, in the order they run. */
export function computedRules(opts: { skipHierarchyTypes?: ReadonlySet<string> } = {}): Rule[] {
  return [
    unknownProperty,
    danglingLink,
    orphan,
    duplicateAlias,
    relationshipTargetType,
    hierarchyCycleRule(opts.skipHierarchyTypes),
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
