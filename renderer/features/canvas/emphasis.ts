/**
 * The selected node's neighbourhood standing out (issue 19.4) without
 * restyling the graph: a second, small Cytoscape instance on its own canvas
 * above the big one, holding copies of the selected node, its neighbours and
 * the edges between them, at the big graph's positions and viewport. Its
 * container's translucent background dims everything below in one CSS
 * change; the big graph is neither restyled nor redrawn. Cost: O(the
 * neighbourhood) per selection, per step of the timeline and per viewport
 * change (a redraw of those few elements). Passive: pointer events go through
 * to the big graph, which stays the interactive one.
 */
import cytoscape, { type Core as Cy, type NodeSingular, type SingularElementArgument } from 'cytoscape';
import { CANVAS_STYLE } from './style.js';

/** classes of the big graph's elements that the copies leave out (label decluttering, edgehandles) */
const DROP = new Set(['lbl-off', 'eh-source', 'eh-target', 'eh-hover']);

export class EmphasisLayer {
  readonly cy: Cy;
  /** the selected node shown with its neighbourhood, or null */
  private root: string | null = null;
  private ids = new Set<string>();

  constructor(private readonly div: HTMLElement, private readonly base: Cy) {
    this.cy = cytoscape({
      container: div, style: CANVAS_STYLE, minZoom: base.minZoom(), maxZoom: base.maxZoom(),
      userZoomingEnabled: false, userPanningEnabled: false, boxSelectionEnabled: false, autoungrabify: true, autounselectify: true,
    });
    div.style.display = 'none';
    base.on('viewport', this.syncViewport);
    base.on('position', 'node', this.onMove);
    base.on('resize', this.onResize);
  }

  private readonly syncViewport = () => { if (this.root) this.cy.viewport({ zoom: this.base.zoom(), pan: this.base.pan() }); };
  private readonly onResize = () => { if (this.root) this.cy.resize(); };
  private readonly onMove = (e: { target: NodeSingular }) => {
    if (!this.root || !this.ids.has(e.target.id())) return;
    const copy = this.cy.getElementById(e.target.id());
    if (copy.nonempty()) copy.position({ ...e.target.position() });
  };

  /** the node shown (tests) */
  get shown(): string | null { return this.root; }

  /** Emphasise `id`'s neighbourhood (null: none); a node the big graph does not show counts as none. */
  show(id: string | null): void {
    const node = id ? this.base.getElementById(id) : null;
    if (!node || node.empty() || !node.isNode()) {
      if (this.root !== null) { this.root = null; this.ids.clear(); this.cy.elements().remove(); this.div.style.display = 'none'; }
      return;
    }
    const wasHidden = this.root === null;
    this.root = id;
    this.refresh();
    if (wasHidden) {
      this.div.style.display = '';
      // the container was not displayed: Cytoscape measures it again
      this.cy.resize();
    }
    this.syncViewport();
  }

  /** Copy the neighbourhood again from the big graph (after its elements' data or classes changed). */
  refresh(): void {
    if (!this.root) return;
    const node = this.base.getElementById(this.root);
    if (node.empty()) { this.show(null); return; }
    const hood = node.closedNeighborhood().filter((el) => !el.hasClass('eh-handle'));
    const ids = new Set<string>();
    const defs: cytoscape.ElementDefinition[] = [];
    hood.forEach((el: SingularElementArgument) => {
      ids.add(el.id());
      const classes = el.classes().filter((c) => !DROP.has(c)).join(' ');
      defs.push(el.isNode()
        ? { group: 'nodes', data: { ...el.data() }, classes, position: { ...el.position() } }
        : { group: 'edges', data: { ...el.data() }, classes });
    });
    this.ids = ids;
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add(defs);
    });
  }

  /** Whether any of `ids` is shown here (a step or an apply that touched them calls refresh). */
  touches(ids: Iterable<string>): boolean {
    if (!this.root) return false;
    for (const id of ids) if (this.ids.has(id)) return true;
    return false;
  }

  destroy(): void {
    this.base.off('viewport', this.syncViewport);
    this.base.off('position', 'node', this.onMove);
    this.base.off('resize', this.onResize);
    this.cy.destroy();
  }
}
