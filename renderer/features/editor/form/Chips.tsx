/** A list as chips: × removes one, Enter in the input adds one (onAdd resolves false: keep the text). */
import { useState, type ReactNode } from 'react';

export function Chips({ testId, items, onRemove, onAdd, render, placeholder, children }: {
  testId: string;
  items: string[];
  onRemove(index: number): void;
  onAdd?(text: string): Promise<boolean>;
  render?(item: string, index: number): ReactNode;
  placeholder?: string;
  children?: ReactNode;
}) {
  const [text, setText] = useState('');
  return (
    <div className="chips" data-testid={testId}>
      {items.map((it, i) => (
        <span key={`${i}:${it}`} className="chip" data-testid="chip" data-value={it}>
          {render ? render(it, i) : it}
          <button type="button" className="chip-x" aria-label={`remove ${it}`} data-testid="chip-remove" onClick={() => onRemove(i)}>×</button>
        </span>
      ))}
      {onAdd && (
        <input className="chip-input" data-testid={`${testId}-add`} value={text} placeholder={placeholder ?? 'add…'}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && text.trim()) {
              e.preventDefault();
              void onAdd(text.trim()).then((ok) => { if (ok) setText(''); });
            }
          }} />
      )}
      {children}
    </div>
  );
}
