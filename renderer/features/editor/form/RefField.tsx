/**
 * A relationship field (a field mapping) as an entity picker: chips for the
 * entities it names (click opens, × unlinks), an input with autocomplete over
 * names and aliases (entity-suggest). A name with no note offers "create it"
 * (type picker, then edit-create + edit-link) or "leave a placeholder" (the name
 * is written as a link to a note that does not exist yet).
 */
import { useEffect, useState } from 'react';
import type { MappingView } from '../../../../shared/contract-edit.js';
import { api } from '../../../api/client.js';
import { useApp } from '../../../store/index.js';
import { asList, refName } from '../fields.js';
import { Chips } from './Chips.js';
import { FieldError, useCommit } from './PropertyField.js';

interface Hit { id: string; name: string; type: string | null; matched: string }

export function RefField({ entityId, layer, mapping, value, types }: { entityId: string; layer: string; mapping: MappingView; value: unknown; types: string[] }) {
  const select = useApp((s) => s.select);
  const { error, setError, run } = useCommit(entityId, mapping.field);
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Hit[]>([]);
  const [offer, setOffer] = useState<string | null>(null);
  const allowed = mapping.targetTypes?.length ? mapping.targetTypes : types;
  const [newType, setNewType] = useState(allowed[0] ?? '');
  const items = asList(value);
  const id = `field-${mapping.field}`;

  useEffect(() => {
    const q = text.trim();
    if (!q) { setHits([]); return; }
    let live = true;
    void api.call('entity-suggest', { prefix: q, limit: 8 }).then((r) => {
      if (!live) return;
      const ok = (t: string | null) => !mapping.targetTypes?.length || (t !== null && mapping.targetTypes.some((x) => x.toLowerCase() === t.toLowerCase()));
      setHits(r.filter((h) => !h.entity.placeholder && ok(h.entity.type) && h.entity.id !== entityId)
        .map((h) => ({ id: h.entity.id, name: h.entity.name, type: h.entity.type, matched: h.matchedText })));
    }).catch(() => undefined);
    return () => { live = false; };
  }, [text, entityId, mapping.targetTypes]);

  const link = async (target: string) => {
    if (await run(() => api.call('edit-link', { from: entityId, rel: mapping.label, to: target }))) { setText(''); setOffer(null); setHits([]); }
  };
  const submit = () => {
    const q = text.trim();
    if (!q) return;
    const exact = hits.find((h) => h.name.toLowerCase() === q.toLowerCase() || h.matched.toLowerCase() === q.toLowerCase());
    if (exact) void link(exact.id); else setOffer(q);
  };

  return (
    <div className={`field ref${error ? ' invalid' : ''}`} data-testid="editor-field" data-field={mapping.field}>
      <label htmlFor={id}>{mapping.field} <span className="rel-name">{mapping.label}</span></label>
      <Chips testId={id} items={items}
        render={(it) => <a href="#" className="ref-link" onClick={(e) => { e.preventDefault(); void select(refName(it)); }}>{refName(it)}</a>}
        onRemove={(i) => void run(() => api.call('edit-unlink', { from: entityId, rel: mapping.label, to: refName(items[i]!) }))}>
        <input id={id} className="chip-input" data-testid={`${id}-add`} value={text} placeholder={mapping.cardinality === 'scalar' && items.length ? 'replace…' : 'link…'}
          onChange={(e) => { setText(e.target.value); setOffer(null); setError(null); }}
          onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); submit(); } if (e.key === 'Escape') { setText(''); setOffer(null); } }} />
      </Chips>
      {hits.length > 0 && !offer && (
        <ul className="suggest inline" data-testid={`${id}-suggest`}>
          {hits.map((h) => (
            <li key={h.id}>
              <button type="button" data-testid="ref-option" onClick={() => void link(h.id)}>
                {h.name}{h.matched !== h.name && <span className="alias"> ({h.matched})</span>}{h.type && <span className="type"> {h.type}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {offer && (
        <div className="offer" data-testid="ref-offer">
          <span>No note named “{offer}”.</span>
          <span className="offer-create">
            Create it as{' '}
            <select data-testid="ref-offer-type" value={newType} onChange={(e) => setNewType(e.target.value)}>
              {allowed.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>{' '}
            <button type="button" data-testid="ref-offer-create" onClick={() => void run(async () => {
              // in the editing entity's layer: a link from it always resolves there
              const c = await api.call('edit-create', { type: newType, name: offer, layer });
              await api.call('edit-link', { from: entityId, rel: mapping.label, to: c.id });
            }).then((ok) => { if (ok) { setText(''); setOffer(null); } })}>Create</button>
          </span>
          <button type="button" data-testid="ref-offer-placeholder" onClick={() => void run(() =>
            api.call('edit-link', { from: entityId, rel: mapping.label, to: offer, placeholder: true }),
          ).then((ok) => { if (ok) { setText(''); setOffer(null); } })}>Leave a placeholder</button>
        </div>
      )}
      <FieldError field={mapping.field} error={error} />
    </div>
  );
}
