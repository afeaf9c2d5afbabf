/**
 * Observable Plot on the server: a chart becomes an SVG string over linkedom's DOM, so the pages, the
 * fragments the event stream refreshes and the offline file hold plain markup and no plotting script.
 * Loaded only when a chart is drawn (`lazy()` in ./figure.ts): its ~270 ms of imports stay out of every
 * other verb and out of `spot serve`'s start-up.
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";

export { Plot };

/** One shared document: Plot only creates detached nodes in it. */
const { document } = parseHTML("<!doctype html><html><head></head><body></body></html>") as unknown as {
  document: unknown;
};

export type PlotOptions = Plot.PlotOptions;

/**
 * The chart as markup. Plot puts a `<style>` element in each chart, which the pages' content security policy
 * refuses (no inline style); app.css carries the same rules under the fixed class name `plot`.
 */
export function svgOf(options: PlotOptions): string {
  const node = Plot.plot({ ...options, document: document as never, className: "plot" }) as unknown as {
    querySelectorAll(s: string): Iterable<{ remove(): void }>;
    outerHTML: string;
  };
  for (const style of [...node.querySelectorAll("style")]) style.remove();
  return node.outerHTML;
}
