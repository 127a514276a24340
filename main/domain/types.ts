/** Domain types shared by the store, the core and the shells (the bottom of main/: imports nothing from main/). */

export type Direction = 'out' | 'in' | 'both';

export interface ListFilter {
  type?: string;
  layer?: string;
  tag?: string;
  /** include placeholders (default false) */
  placeholders?: boolean;
  offset?: number;
  limit?: number;
}

