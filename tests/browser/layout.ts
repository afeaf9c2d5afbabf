/**
 * Layout measured from the DOM of a real page: anything wider than the window, any box that cuts or scrolls
 * the text it holds, any element that sticks out of the panel, card, cell or figure around it, and any
 * chart text that runs past its chart. Also the three glitches a screenshot would only show: a step number
 * that lost a digit, a commit hash on two lines, an error code broken inside a word.
 */
// deno-lint-ignore-file no-explicit-any
import type { Page } from "playwright-core";

/** The boxes an element must stay inside. */
const BOXES = ".panel, .card, figure, td, th, li, dd, .detail-part, .node, header.top, .job-snapshot";
/** Boxes meant to scroll what they hold. */
const SCROLLERS = "pre.log, .table-wrap, .graph, .chart-graph";

export function layoutProblems(page: Page, root = "body"): Promise<string[]> {
  return page.evaluate(([root, boxes, scrollers]) => {
    const g = globalThis as any;
    const doc = g.document;
    const out: string[] = [];
    const over = doc.documentElement.scrollWidth - g.innerWidth;
    if (over > 1) out.push(`the page is ${over}px wider than the window`);
    const name = (el: any) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${
        typeof el.className === "string" && el.className
          ? `.${el.className.trim().split(/\s+/).join(".")}`
          : ""
      } "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    const shown = (el: any) =>
      el.getClientRects().length > 0 && g.getComputedStyle(el).visibility !== "hidden";
    for (const details of doc.querySelectorAll(`${root} details`)) details.open = true;
    for (const el of doc.querySelectorAll(`${root} *`)) {
      if (!shown(el) || el.closest("svg")) continue;
      const style = g.getComputedStyle(el);
      if (style.overflowX !== "visible" && !el.matches(scrollers) && el.scrollWidth > el.clientWidth + 1) {
        out.push(`${name(el)} cuts what it holds (${el.scrollWidth}px in ${el.clientWidth}px)`);
      }
      const box = el.parentElement?.closest(boxes);
      if (!box || box.closest(scrollers) !== el.closest(scrollers)) continue;
      const r = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      if (r.width > 0 && (r.right > b.right + 1 || r.left < b.left - 1)) {
        out.push(
          `${name(el)} sticks out of ${name(box)} (${Math.round(r.left)}-${Math.round(r.right)} in ${
            Math.round(b.left)
          }-${Math.round(b.right)})`,
        );
      }
    }
    for (const t of doc.querySelectorAll(`${root} svg.plot text`)) {
      if (!shown(t)) continue;
      const r = t.getBoundingClientRect();
      const b = t.closest("svg").getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
        out.push(`chart text "${t.textContent}" runs past its chart (${t.closest("figure")?.id ?? "?"})`);
      }
    }
    for (const details of doc.querySelectorAll(`${root} details`)) details.open = false;
    return out;
  }, [root, BOXES, SCROLLERS]);
}

/** Step numbers that are not whole and in order, inside their list. */
export function stepProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const out: string[] = [];
    for (const list of doc.querySelectorAll("ol.transitions")) {
      if (list.getClientRects().length === 0) continue;
      const box = list.getBoundingClientRect();
      [...list.querySelectorAll(":scope > li")].forEach((li: any, i: number) => {
        const step = li.querySelector(".step");
        if (!step) return void out.push(`item ${i + 1} has no step number of its own`);
        const r = step.getBoundingClientRect();
        if (step.textContent !== `${i + 1}.`) out.push(`item ${i + 1} is numbered "${step.textContent}"`);
        if (r.left < box.left - 0.5 || step.scrollWidth > Math.ceil(r.width) + 1) {
          out.push(`step "${step.textContent}" is cut (${r.left} < ${box.left})`);
        }
      });
    }
    return out;
  });
}

/**
 * Every `code` whose text looks like `kind`, measured from its rendered lines: a commit hash on one line, an
 * error code such as INTEGRATION_BLOCKED broken only after an underscore (each word on one line). The
 * elements are found by their text, not by a class a fix might add.
 */
export function lineProblems(
  page: Page,
  kind: "hash" | "code",
): Promise<{ seen: number; problems: string[] }> {
  return page.evaluate((kind) => {
    const doc = (globalThis as any).document;
    const shape = kind === "hash" ? /^[0-9a-f]{7,40}$/ : /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;
    const out: string[] = [];
    let seen = 0;
    const lines = (range: any) =>
      new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size;
    for (const el of doc.querySelectorAll("code")) {
      const text = (el.textContent ?? "").trim();
      if (!shape.test(text) || el.getClientRects().length === 0) continue;
      seen++;
      if (kind === "hash") {
        const range = doc.createRange();
        range.selectNodeContents(el);
        if (lines(range) > 1) out.push(`hash "${text}" spans ${lines(range)} lines`);
        continue;
      }
      const walker = doc.createTreeWalker(el, 4);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.textContent.matchAll(/[^_]+_*/g)) {
          const range = doc.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          if (lines(range) > 1) out.push(`"${word[0]}" of ${text} is broken across ${lines(range)} lines`);
        }
      }
    }
    return { seen, problems: out };
  }, kind);
}
