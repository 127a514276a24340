/**
 * One schema property as a form control. Commits on blur / Enter (select and
 * checkbox on change) through edit-set / edit-unset; a value the schema refuses
 * is shown inline and not written.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import type { PropertyDefView } from '../../../../shared/contract-edit.js';
import { api } from '../../../api/client.js';
import { errorText } from '../slice.js';
import { asList, display, parseInput, parseListItem, widgetOf, type Parsed } from '../fields.js';
import { Chips } from './Chips.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function useCommit(entityId: string, field: string) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    try { await fn(); setError(null); return true; } catch (e) { setError(errorText(e)); return false; } finally { setBusy(false); }
  };
  const commit = async (parsed: Parsed, current: unknown): Promise<boolean> => {
    if (!parsed.ok) { setError(`${field} ${parsed.error}`); return false; }
    if (parsed.unset) {
      if (current === undefined) { setError(null); return true; }
      return run(() => api.call('edit-unset', { nameOrId: entityId, field }));
    }
    if (JSON.stringify(parsed.value) === JSON.stringify(current)) { setError(null); return true; }
    return run(() => api.call('edit-set', { nameOrId: entityId, field, value: parsed.value }));
  };
  return { error, setError, busy, run, commit };
}

export function FieldError({ field, error }: { field: string; error: string | null }) {
  return error ? <div className="field-error" role="alert" data-testid={`field-error-${field}`}>{error}</div> : null;
}

export function PropertyField({ entityId, def, value }: { entityId: string; def: PropertyDefView; value: unknown }) {
  const widget = widgetOf(def);
  const [raw, setRaw] = useState(display(value));
  const { error, commit } = useCommit(entityId, def.name);
  useEffect(() => setRaw(display(value)), [value]);
  const id = `field-${def.name}`;
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') { e.preventDefault(); void commit(parseInput(def, raw), value); }
    if (e.key === 'Escape') setRaw(display(value));
  };
  let control;
  switch (widget) {
    case 'select':
      control = (
        <select id={id} data-testid={id} value={raw} onChange={(e) => { setRaw(e.target.value); void commit(parseInput(def, e.target.value), value); }}>
          <option value="">—</option>
          {(def.values ?? []).map((v) => <option key={String(v)} value={String(v)}>{String(v)}</option>)}
          {raw && !(def.values ?? []).some((v) => String(v) === raw) && <option value={raw}>{raw} (not allowed)</option>}
        </select>
      );
      break;
    case 'checkbox':
      control = (
        <input id={id} data-testid={id} type="checkbox" checked={value === true}
          onChange={(e) => void commit({ ok: true, value: e.target.checked }, value)} />
      );
      break;
    case 'chips': {
      const items = asList(value);
      control = (
        <Chips testId={id} items={items}
          onRemove={(i) => void commit({ ok: true, value: (Array.isArray(value) ? value : [value]).filter((_x, k) => k !== i) }, value)}
          onAdd={async (text) => {
            const p = parseListItem(def, text);
            return commit(p.ok ? { ok: true, value: [...(Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]), p.value] } : p, value);
          }} />
      );
      break;
    }
    default: {
      const type = widget === 'date' && (raw === '' || DAY.test(raw)) ? 'date' : 'text';
      control = (
        <input id={id} data-testid={id} type={type} inputMode={widget === 'number' ? 'decimal' : undefined}
          value={raw} aria-invalid={error ? true : undefined}
          onChange={(e) => setRaw(e.target.value)} onKeyDown={onKey}
          onBlur={() => void commit(parseInput(def, raw), value)} />
      );
    }
  }
  return (
    <div className={`field${error ? ' invalid' : ''}`} data-testid="editor-field" data-field={def.name}>
      <label htmlFor={id}>{def.name}{def.required && <span className="required" title="required">*</span>}</label>
      {control}
      {def.description && <div className="hint">{def.description}</div>}
      <FieldError field={def.name} error={error} />
    </div>
  );
}
