/** Case-insensitive, whitespace-collapsed key used for name matching. */
export function normaliseName(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export function entityId(layer: string, name: string): string {
  return `${layer}/${normaliseName(name)}`;
}
