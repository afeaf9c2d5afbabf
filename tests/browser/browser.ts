/**
 * Headless Chromium for the dashboard tests: the Debian `chromium` package
 * driven by playwright-core, with a fresh profile that is removed afterwards.
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { join } from "node:path";

export const CHROMIUM = Deno.env.get("SPOT_CHROMIUM") ?? "/usr/bin/chromium";
export const OUTPUT_DIR = join(import.meta.dirname ?? ".", "..", "..", "test-output");

/** Without chromium the browser tests are skipped on a developer's machine, never in CI. */
export function browserMissing(): boolean {
  try {
    Deno.statSync(CHROMIUM);
    return false;
  } catch {
    if (Deno.env.get("CI")) return false;
    console.warn(`skipping browser tests: no ${CHROMIUM} (apt install chromium)`);
    return true;
  }
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launch(): Promise<Browser> {
  const profile = await Deno.makeTempDir({ prefix: "spot-chromium-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Watches a page for anything an injected script could do: the `__xss` flag
 * the payloads set, dialogs, and CSP violations (which would mean markup got
 * through escaping and only the CSP stopped it).
 */
export async function watchForScripts(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  page.on("dialog", (d) => {
    seen.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("pageerror", (e) => seen.push(`page error: ${e.message}`));
  // A string, not a function: this file is type-checked without the DOM library.
  await page.addInitScript(`
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));
  `);
  return async () => {
    const flags = await page.evaluate(() => {
      const w = globalThis as unknown as { __xss?: unknown; __csp?: string[] };
      return { xss: w.__xss, csp: w.__csp ?? [] };
    });
    if (flags.xss !== undefined) seen.push(`__xss was set to ${String(flags.xss)}`);
    for (const v of flags.csp) seen.push(`CSP violation: ${v}`);
    return seen;
  };
}
