/**
 * A name field with completion from the name index (entity-suggest): a
 * <datalist> of matching names, refreshed as the user types.
 */
import { useEffect, useId, useState } from 'react';
import { api } from '../../api/client.js';

export function EntityInput(props: { value: string; onChange(v: string): void; placeholder: string; testId: string; onEnter?(): void }) {
  const { value, onChange, placeholder, testId, onEnter } = props;
  const list = useId();
  const [options, setOptions] = useState<string[]>([]);
  useEffect(() => {
    const q = value.trim();
    if (!q) { setOptions([]); return; }
    let live = true;
    const t = setTimeout(() => {
      api.call('entity-suggest', { prefix: q, limit: 8 })
        .then((ms) => { if (live) setOptions([...new Set(ms.filter((m) => !m.entity.placeholder).map((m) => m.entity.name))]); })
        .catch(() => undefined);
    }, 80);
    return () => { live = false; clearTimeout(t); };
  }, [value]);
  return (
    <>
      <input data-testid={testId} placeholder={placeholder} value={value} list={list} autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => { if (e.key === 'Enter' && onEnter) { e.preventDefault(); onEnter(); } }} />
      <datalist id={list}>{options.map((o) => <option key={o} value={o} />)}</datalist>
    </>
  );
}
