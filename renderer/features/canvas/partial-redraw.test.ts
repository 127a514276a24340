import { describe, expect, it } from 'vitest';
import { meetsAny, screenRects, segmentBoxes, segmentMeets } from './partial-redraw.js';

describe('partial redraw geometry', () => {
  it('screenRects snaps model boxes outward to whole, padded screen pixels', () => {
    expect(screenRects([{ x1: 1.2, y1: 2.7, x2: 3.1, y2: 4 }], 2, 10, 20, 2)).toEqual([[10, 23, 9, 7]]);
  });

  it('segmentBoxes covers a long diagonal with a thin band, not its whole bounding box', () => {
    const boxes = segmentBoxes({ x: 0, y: 0 }, { x: 100, y: 100 }, 1, 10);
    expect(boxes.length).toBe(15);
    // the ends are covered, the far corner of the bounding box is not
    expect(meetsAny({ x1: 0, y1: 0, x2: 0, y2: 0 }, boxes)).toBe(true);
    expect(meetsAny({ x1: 100, y1: 100, x2: 100, y2: 100 }, boxes)).toBe(true);
    expect(meetsAny({ x1: 90, y1: 0, x2: 95, y2: 5 }, boxes)).toBe(false);
    const area = boxes.reduce((a, b) => a + (b.x2 - b.x1) * (b.y2 - b.y1), 0);
    expect(area).toBeLessThan((100 * 100) / 4);
  });

  it('segmentMeets: a box the line crosses, touches within pad, or misses', () => {
    const a = { x: 0, y: 0 }, b = { x: 100, y: 0 };
    expect(segmentMeets(a, b, 0, { x1: 40, y1: -5, x2: 60, y2: 5 })).toBe(true);
    expect(segmentMeets(a, b, 0, { x1: 40, y1: 3, x2: 60, y2: 5 })).toBe(false);
    expect(segmentMeets(a, b, 4, { x1: 40, y1: 3, x2: 60, y2: 5 })).toBe(true);
    expect(segmentMeets(a, b, 0, { x1: 120, y1: -5, x2: 130, y2: 5 })).toBe(false);
    // a diagonal passing beside a box's corner, and one through it
    expect(segmentMeets({ x: 0, y: 0 }, { x: 10, y: 10 }, 0, { x1: 6, y1: 0, x2: 10, y2: 3 })).toBe(false);
    expect(segmentMeets({ x: 0, y: 0 }, { x: 10, y: 10 }, 0, { x1: 4, y1: 0, x2: 10, y2: 5 })).toBe(true);
  });
});
