/**
 * The timeline bar under the canvas: layer picker, scrubber across the layer's
 * sessions (in-world dates as labels), event markers in lanes, step / play
 * controls, `[` / `]` keys, and "New event here". Moving the scrubber restyles
 * the canvas (overlay) and the entity panel's "as of session N" section.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { markersOf, step, stopIndex, stopsOf } from './model.js';
import { firstListsGate } from '../canvas/slice.js';
import { NewEventForm } from './NewEventForm.js';
import { labelStride, labelWidth, shownLabels } from './axis.js';
import './timeline.css';

const PLAY_MS = 1200;
/** while dragging the scrubber over steps not prefetched yet, fetch at most one per this many ms (the last position always wins) */
const DRAG_DEBOUNCE_MS = 40;

/** Focus in a text field, select or editor: leave the keys to it. */
function typing(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || (['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName) && !(t instanceof HTMLInputElement && t.type === 'range'));
}

const s = () => useApp.getState();

/**
 * One event marker and one tick of the axis, memoised: a scrub step changes the scrubber's position, the ticks
 * whose "on" flips and the markers whose "past" flips; the other ~250 buttons are not rendered again.
 */
const Marker = memo(function Marker({ id, session, title, left, past }: { id: string; session: number; title: string; left: string; past: boolean }) {
  return (
    <button type="button" className={`tl-marker${past ? ' past' : ''}`}
      data-testid="timeline-marker" data-event-id={id} data-session={session} title={title}
      style={{ left }} onClick={() => { void s().setTimelineSession(session); void s().select(id); }} />
  );
});

/** one lane's markers (their place on the axis worked out once per timeline) */
interface LaneMarker { id: string; session: number; title: string; left: string }

/**
 * One lane's row, memoised: `past` holds a '1' per marker of the lane at or before the shown session ('0' after),
 * so a step re-renders only the lanes where a marker's "past" flips, not all ~200 markers' elements.
 */
const LaneRow = memo(function LaneRow({ lane, items, past }: { lane: string; items: readonly LaneMarker[]; past: string }) {
  return (
    <div className="tl-lane" data-testid="timeline-lane" data-lane={lane}>
      <span className="tl-lane-name">{lane}</span>
      <div className="tl-lane-row">
        {items.map((m, i) => <Marker key={m.id} id={m.id} session={m.session} title={m.title} past={past[i] === '1'} left={m.left} />)}
      </div>
    </div>
  );
});

const Tick = memo(function Tick({ session, title, left, on, number, date, numberShown, dateShown }: {
  session: number; title: string; left: string; on: boolean; number: string; date: string; numberShown: boolean; dateShown: boolean;
}) {
  return (
    <button type="button" className={`tl-tick${on ? ' on' : ''}`}
      data-testid="timeline-tick" data-session={session} title={title}
      style={{ left }} onClick={() => void s().setTimelineSession(session)}>
      {/* thinned labels (no room) show on hover, in the title */}
      <b className={numberShown ? '' : 'thin'}>{number}</b>
      <small className={dateShown ? '' : 'thin'}>{date}</small>
    </button>
  );
});

export function TimelineBar() {
  const vault = useApp((s) => s.vault);
  const layer = useApp((s) => s.timelineLayer);
  const t = useApp((s) => s.timeline);
  const session = useApp((s) => s.timelineSession);
  const playing = useApp((s) => s.timelinePlaying);
  const players = useApp((s) => s.audience === 'players');
  const error = useApp((s) => s.timelineError);
  const selectedId = useApp((s) => s.selectedId);
  const [formOpen, setFormOpen] = useState(false);
  const [dragIdx, setDragIdx] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const layers = useMemo(() => {
    const all = vault?.layers ?? [];
    const campaigns = all.filter((l) => !l.canonical);
    return (campaigns.length ? campaigns : all).map((l) => l.name);
  }, [vault]);
  const stops = useMemo(() => (t ? stopsOf(t) : []), [t]);
  // the axis width, for thinning the tick labels so that none overlap (axis.ts)
  const ticksRef = useRef<HTMLDivElement>(null);
  const [axisPx, setAxisPx] = useState(0);
  useEffect(() => {
    const el = ticksRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setAxisPx(el.clientWidth));
    ro.observe(el);
    setAxisPx(el.clientWidth);
    return () => ro.disconnect();
  }, [t]);
  const axisShown = useMemo(() => {
    const w = Math.max(0, ...stops.map((st) => labelWidth(st.short)));
    const n = Math.max(0, ...stops.map((st) => labelWidth(st.before ? '·' : String(st.session)) + 4));
    return { dates: shownLabels(stops.length, labelStride(stops.length, axisPx, w)), numbers: shownLabels(stops.length, labelStride(stops.length, axisPx, n)) };
  }, [stops, axisPx]);
  const markers = useMemo(() => (t ? markersOf(t) : []), [t]);
  // each lane's markers with their place on the axis: the same for every step
  const laneItems = useMemo(() => {
    const at = (n: number) => (stops.length > 1 ? (stopIndex(stops, n) / (stops.length - 1)) * 100 : 0);
    const out = new Map<string, LaneMarker[]>();
    for (const lane of t?.lanes ?? []) out.set(lane, []);
    for (const m of markers) {
      out.get(m.lane)?.push({ id: m.id, session: m.session, title: m.title, left: `calc(${at(m.session)}% + ${(m.slot - (m.of - 1) / 2) * 9}px)` });
    }
    return out;
  }, [t, markers, stops]);

  // pick a layer once the vault is known (and again when the vault changes)
  useEffect(() => {
    if (layers.length === 0) return;
    if (!layer || !layers.includes(layer)) void s().restoreTimeline(layers);
  }, [layers, layer]);

  // the files changed (an event written here, on disk, by MCP): reload sessions and the shown step
  // (during a big graph's first load, once its laid-out picture is painted: live.ts)
  useEffect(() => api.on('vault-changed', () => {
    void firstListsGate().then(() => {
      const l = s().timelineLayer;
      if (l) void s().loadTimeline(l);
    });
  }), []);

  // another entity selected: its state as of the shown session
  useEffect(() => { void s().loadTimelineState(); }, [selectedId]);

  useEffect(() => {
    if (!playing) return;
    const id = setInterval(() => {
      const st = s();
      const next = step(stops, st.timelineSession, 1);
      if (next === null || next === st.timelineSession) { st.setTimelinePlaying(false); return; }
      void st.setTimelineSession(next);
    }, PLAY_MS);
    return () => clearInterval(id);
  }, [playing, stops]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key !== '[' && e.key !== ']') return;
      e.preventDefault();
      const next = step(stops, s().timelineSession, e.key === ']' ? 1 : -1);
      if (next !== null) void s().setTimelineSession(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stops]);

  // the bar (or its form) changed the height left to the canvas: let Cytoscape re-measure its container
  const shown = layers.length > 0;
  useEffect(() => { window.dispatchEvent(new Event('resize')); }, [shown, formOpen, t]);

  if (!shown) return null;
  const idx = dragIdx ?? (session === null ? stops.length - 1 : stopIndex(stops, session));
  const current = session === null ? null : stops[stopIndex(stops, session)];
  const pct = (i: number) => (stops.length > 1 ? (i / (stops.length - 1)) * 100 : 0);
  const lanes = t?.lanes ?? [];

  const scrubTo = (i: number, now: boolean) => {
    setDragIdx(i);
    if (timer.current) clearTimeout(timer.current);
    const go = () => { setDragIdx(null); void s().setTimelineSession(stops[i]!.session); };
    // a prefetched step costs no round trip: shown at once; otherwise the drag's last position wins
    if (now || s().timelineCached(stops[i]!.session)) go(); else timer.current = setTimeout(go, DRAG_DEBOUNCE_MS);
  };

  return (
    <section className="timeline-bar" data-testid="timeline-bar" data-session={session ?? ''} data-mode={session === null ? 'as-written' : 'session'} aria-label="timeline">
      <div className="tl-controls">
        <select data-testid="timeline-layer" value={layer ?? ''} title="campaign layer" onChange={(e) => void s().loadTimeline(e.target.value)}>
          {layers.map((l) => <option key={l} value={l}>{l}</option>)}
        </select>
        <button type="button" data-testid="timeline-back" aria-label="previous session" title="previous session ( [ )" onClick={() => { const n = step(stops, session, -1); if (n !== null) void s().setTimelineSession(n); }}>‹</button>
        <button type="button" data-testid="timeline-play" title={playing ? 'pause' : 'play'} aria-pressed={playing} onClick={() => s().setTimelinePlaying(!playing)}>{playing ? '❚❚' : '▶'}</button>
        <button type="button" data-testid="timeline-forward" aria-label="next session" title="next session ( ] )" onClick={() => { const n = step(stops, session, 1); if (n !== null) void s().setTimelineSession(n); }}>›</button>
        <span className={`tl-current${session === null ? ' live' : ''}`} data-testid="timeline-current">
          {current ? current.label
            // the players never see the notes as written (GM-only events, secrets): off = all they know so far
            : players ? <><span className="tl-aw-badge">Latest</span> what the players know after every session</>
              : <><span className="tl-aw-badge">As written</span> the notes as they are, no events applied</>}
        </span>
        {session !== null && <button type="button" className="tl-live" data-testid="timeline-live" title={players ? 'show what the players know after every session' : 'show the notes as written'}
          onClick={() => void s().setTimelineSession(null)}>× {players ? 'latest' : 'off'}</button>}
        <span className="tl-spacer" />
        {error && <span className="tl-error" role="alert">{error}</span>}
        {!players && <button type="button" className="tl-new" data-testid="timeline-new-event" disabled={!current || current.before}
          title={current && !current.before ? `new event at session ${current.session}` : 'scrub to a session first'}
          onClick={() => setFormOpen((o) => !o)}>+ New event here</button>}
      </div>
      <div className="tl-track">
        <div className="tl-lanes">
          {lanes.map((lane) => {
            const items = laneItems.get(lane) ?? [];
            let past = '';
            for (const m of items) past += current && m.session <= current.session ? '1' : '0';
            return <LaneRow key={lane} lane={lane} items={items} past={past} />;
          })}
        </div>
        <div className="tl-scrub">
          <span className="tl-lane-name" />
          <div className="tl-scrub-row">
            <input type="range" min={0} max={Math.max(0, stops.length - 1)} step={1} value={idx}
              data-testid="timeline-scrubber" aria-label="session" aria-valuetext={stops[idx]?.label ?? ''}
              className={session === null ? 'off' : ''}
              onChange={(e) => scrubTo(Number(e.target.value), false)}
              onPointerUp={(e) => scrubTo(Number((e.target as HTMLInputElement).value), true)} />
            <div className="tl-ticks" ref={ticksRef}>
              {stops.map((st, i) => (
                <Tick key={st.session} session={st.session} title={st.label} left={`${pct(i)}%`} on={i === idx && session !== null}
                  number={st.before ? '·' : String(st.session)} date={st.short}
                  numberShown={axisShown.numbers.has(i)} dateShown={axisShown.dates.has(i)} />
              ))}
            </div>
          </div>
        </div>
      </div>
      {formOpen && current && !current.before && layer && (
        <NewEventForm layer={layer} layers={layers} session={current.session} onDone={() => setFormOpen(false)} />
      )}
    </section>
  );
}
