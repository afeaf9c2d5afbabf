import assert from "node:assert/strict";
import { copyModule, lexerReady } from "./copy_module.ts";

await lexerReady();

const emitted = [
  'import { a } from "./a.ts";',
  'import {\n  b,\n  c,\n} from "../b/b.ts";',
  'export { d } from "./d.ts";',
  'export * from "./e.ts";',
  'import "./side.ts";',
  'import data from "../data.json" with { type: "json" };',
  'import { z } from "zod";',
  'const m = () => lazy("./late.ts", import.meta.url);',
  "export const here = import.meta.url;",
  "if (import.meta.main) run();",
  // Text that only looks like code: a module that writes TypeScript, a message naming import.meta.
  'const generated = `import { x } from "./x.ts";\\nexport const y = import.meta.url;`;',
  'const said = "import.meta.url is the module";',
].join("\n");

Deno.test("a copied module imports the copy's JavaScript and finds everything else in the checkout", () => {
  const out = copyModule(emitted, "x/mod.ts", "file:///src/spot/");
  assert.deepEqual(out.problems, []);
  assert.deepEqual(out.imports, ["x/a.ts", "b/b.ts", "x/d.ts", "x/e.ts", "x/side.ts"]);
  assert.deepEqual(out.assets, ["file:///src/spot/data.json"]);
  assert.equal(out.exportsDefault, false);
  assert.match(out.text, /^import \{ a \} from "\.\/a\.js";$/m);
  assert.match(out.text, /\} from "\.\.\/b\/b\.js";/);
  assert.match(out.text, /export \{ d \} from "\.\/d\.js"/);
  assert.match(out.text, /export \* from "\.\/e\.js"/);
  assert.match(out.text, /import "\.\/side\.js"/);
  assert.match(out.text, /from "file:\/\/\/src\/spot\/data\.json"/);
  assert.match(out.text, /from "zod"/);
  assert.match(out.text, /lazy\("\.\/late\.ts", "file:\/\/\/src\/spot\/x\/mod\.ts"\)/);
  assert.match(out.text, /export const here = "file:\/\/\/src\/spot\/x\/mod\.ts";/);
  assert.match(out.text, /if \(false\) run\(\)/);
  // What is text stays as it was.
  assert.ok(out.text.includes('`import { x } from "./x.ts";\\nexport const y = import.meta.url;`'));
  assert.match(out.text, /"import\.meta\.url is the module"/);
});

Deno.test("a module's default export is told, not one re-exported under another name", () => {
  assert.equal(copyModule("const a = 1;\nexport default a;", "m.ts", "file:///src/").exportsDefault, true);
  assert.equal(
    copyModule('export { default as b } from "./b.ts";', "m.ts", "file:///src/").exportsDefault,
    false,
  );
  assert.equal(copyModule('export * from "./b.ts";', "m.ts", "file:///src/").exportsDefault, false);
});

Deno.test("a module the copy cannot run as the sources would is refused", () => {
  const out = copyModule(
    'const u = import.meta.resolve("./x.ts");\nconst f = import.meta.filename;\nconst l = await import("./y.ts");\nconst k = import.meta.urlish;',
    "m.ts",
    "file:///src/",
  );
  assert.equal(out.problems.length, 4, out.problems.join(" | "));
  const starts = [
    "import.meta.resol",
    "import.meta.filen",
    "a literal dynamic import of ./y.ts",
    "import.meta.urlis",
  ];
  for (const [i, start] of starts.entries()) assert.ok(out.problems[i].startsWith(start), out.problems[i]);
});
