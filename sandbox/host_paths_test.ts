import assert from "node:assert/strict";
import { installRoot, safeReadRoots, systemView } from "./host_paths.ts";

Deno.test("installRoot() takes the outermost node_modules of an npm package", () => {
  assert.equal(
    installRoot("/w/.workers/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"),
    "/w/.workers/node_modules",
  );
  assert.equal(installRoot("/usr/lib/node_modules/deno/deno"), "/usr/lib/node_modules");
});

Deno.test("installRoot() takes the prefix above a bin dir, but never / or /usr", () => {
  assert.equal(installRoot("/opt/tool/bin/tool"), "/opt/tool");
  assert.equal(installRoot("/home/u/.deno/bin/deno"), "/home/u/.deno");
  assert.equal(installRoot("/usr/bin/git"), "/usr/bin");
  assert.equal(installRoot("/opt/thing/run.sh"), "/opt/thing");
});

Deno.test("safeReadRoots() drops /, top-level dirs, ancestors of kept-out paths and paths already writable", () => {
  const keepOut = ["/home/u", "/home/u/.local/state/pi-worker", "/srv/repo"];
  const writable = ["/home/u/.cache/pi-worker/worktrees/run-1"];
  assert.deepEqual(
    safeReadRoots(
      [
        "/",
        "/tmp",
        "/home",
        "/usr",
        "/srv",
        "/home/u/.deno",
        "/home/u/.cache/pi-worker/worktrees/run-1/bin",
        "/opt/tool",
        "/opt/tool/",
        "relative",
      ],
      keepOut,
      writable,
    ),
    ["/usr", "/home/u/.deno", "/opt/tool"],
  );
});

Deno.test("systemView() on this host shows /usr and recreates merged-/usr links instead of following them", () => {
  const view = systemView();
  assert.ok(view.readOnly.includes("/usr"));
  const bin = Deno.lstatSync("/bin");
  if (bin.isSymlink) assert.ok(view.symlinks.some((l) => l.path === "/bin"));
  else assert.ok(view.readOnly.includes("/bin"));
  assert.ok(!view.readOnly.includes("/etc/shadow") && !view.readOnly.includes("/etc"));
});
