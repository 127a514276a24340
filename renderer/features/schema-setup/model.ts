/**
 * Pure logic of the schema setup panel: the GM's choices per proposed type
 * (rename, merge = same name as another type, drop, folder vs tag rule).
 */
import type { ProposedTypeView, TypeChoiceView } from '../../../shared/contract-schema-setup.js';

export type Choices = Record<string, TypeChoiceView>;

/** The proposal's defaults as choices. */
export function initialChoices(candidates: ProposedTypeView[]): Choices {
  return Object.fromEntries(candidates.map((c) => [c.id, { id: c.id, name: c.name, rule: c.rule, keep: c.keep }]));
}

export function choiceList(choices: Choices): TypeChoiceView[] {
  return Object.values(choices);
}

/** Names a type can be merged into: the other kept types' names, once each. */
export function mergeTargets(choices: Choices, id: string): string[] {
  const own = choices[id]?.name.toLowerCase();
  const names = new Map<string, string>();
  for (const c of Object.values(choices)) if (c.keep && c.id !== id && c.name.toLowerCase() !== own) names.set(c.name.toLowerCase(), c.name);
  return [...names.values()].sort((a, b) => a.localeCompare(b));
}

/** A type name the schema accepts, or the reason it does not. */
export function nameError(name: string): string | null {
  if (!name.trim()) return 'a type needs a name';
  return /^[A-Za-z][A-Za-z0-9_-]*$/.test(name.trim()) ? null : 'start with a letter; letters, digits, _ and - only';
}

/** Where a proposed type comes from, in words. */
export function sourceText(c: ProposedTypeView): string {
  if (c.field) return `type: ${c.field}`;
  return [c.folder && `folder ${c.folder}/`, c.tag && `tag #${c.tag}`].filter(Boolean).join(' · ');
}
