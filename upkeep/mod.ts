/** Freeing what runs hold: dropping a run (`spot discard`), collecting old ones and what killed steps left (`spot gc`). */
export * from "../lifecycle/discard.ts";
export * from "./gc.ts";
