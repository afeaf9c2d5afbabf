/**
 * The drawn plots panel of each view, kept until the run index changes. Drawing reads every run (a tenth of a
 * second at 10,000 runs on an idle machine), so while runs keep changing a view is drawn again at most once
 * per GAP_FACTOR times its last drawing took: asked sooner, the cache answers the last panel marked stale
 * with when to ask again, and the page does (assets/app.js). No timer runs on the server.
 */
import type { Html } from "../views/format.ts";

/** Drawing may take at most 1/GAP_FACTOR of the server's time while runs change. */
export const GAP_FACTOR = 5;
/** However slow a drawing was, the plots are at most this stale while runs change. */
export const MAX_GAP_MS = 10_000;
/** Views kept at once: the day and week periods of a few filters. */
const MAX_VIEWS = 8;
const PANEL_TAG = '<section class="panel plots"';

interface Drawn {
  generation: string;
  html: string;
  at: number;
  ms: number;
}

export class PlotCache {
  readonly #views = new Map<string, Drawn>();
  readonly #drawing = new Map<string, Promise<Drawn>>();
  constructor(readonly now: () => number = () => performance.now()) {}

  /** The panel of `view` for the index at `generation`, drawn by `render` when it must be. */
  async get(view: string, generation: string, render: () => Promise<Html>): Promise<string> {
    const last = this.#views.get(view);
    if (last?.generation === generation) return last.html;
    const wait = last ? Math.ceil(last.at + Math.min(MAX_GAP_MS, GAP_FACTOR * last.ms) - this.now()) : 0;
    if (last && wait > 0) return last.html.replace(PANEL_TAG, `${PANEL_TAG} data-stale-ms="${wait}"`);
    return (await this.#draw(view, generation, render)).html;
  }

  /** One drawing per view at a time; a second asker waits for it. */
  #draw(view: string, generation: string, render: () => Promise<Html>): Promise<Drawn> {
    const running = this.#drawing.get(view);
    if (running) return running;
    const drawing = (async () => {
      const t0 = this.now();
      const html = (await render()).toString();
      const drawn = { generation, html, at: this.now(), ms: this.now() - t0 };
      this.#views.delete(view);
      if (this.#views.size >= MAX_VIEWS) this.#views.delete(this.#views.keys().next().value!);
      this.#views.set(view, drawn);
      return drawn;
    })().finally(() => this.#drawing.delete(view));
    this.#drawing.set(view, drawing);
    return drawing;
  }
}
