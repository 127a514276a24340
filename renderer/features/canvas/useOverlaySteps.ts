/**
 * Scrubber steps reach the canvas outside React: a store subscription hands
 * each new overlay to the controller (one batched restyle of what changed,
 * drawn in the next frame), so a step re-renders no component; every
 * session's overlay, once prefetched, tells the controller which elements a
 * scrub can change (its scrub layer). The
 * accessible list mirror follows once the steps pause (LIST_AFTER_MS): it is
 * thousands of <li> on a big world, not worth re-rendering per step.
 */
import { useEffect, useState, type RefObject } from 'react';
import { useApp } from '../../store/index.js';
import type { CanvasController } from './controller.js';
import type { CanvasOverlay } from './overlay.js';

/** the list mirror takes the overlay this long after the last step */
export const LIST_AFTER_MS = 150;

/**
 * Steps the (big graph's) controller on every overlay change, focused or not (a focus is shown on a
 * layer of its own, which re-renders with the overlay); returns the list's overlay.
 */
export function useOverlaySteps(ctl: RefObject<CanvasController | null>): CanvasOverlay {
  const [listOverlay, setListOverlay] = useState<CanvasOverlay>(() => useApp.getState().canvasOverlay);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = useApp.subscribe((s, prev) => {
      if (s.canvasSteps !== prev.canvasSteps) ctl.current?.prepareSteps(s.canvasSteps);
      if (s.canvasOverlay === prev.canvasOverlay) return;
      ctl.current?.step(s.canvasOverlay);
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => { timer = null; setListOverlay(useApp.getState().canvasOverlay); }, LIST_AFTER_MS);
    });
    return () => { off(); if (timer) clearTimeout(timer); };
  }, [ctl]);
  return listOverlay;
}
