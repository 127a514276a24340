/**
 * The canvas's saved picture through the core: pins and layout positions in
 * `<vault>/.lorecraft/canvas.json`, stored (serialised per vault, atomic
 * writes) by the domain module main/canvas/positions.ts.
 */
export { CANVAS_FILE, changeCanvas, readCanvas, type CanvasChange, type CanvasFile } from '../canvas/positions.js';
