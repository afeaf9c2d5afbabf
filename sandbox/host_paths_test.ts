import assert from "node:assert/strict";
import { join } from "node:path";
import { pathDirs, safeReadRoots, systemView } from "./host_paths.ts";

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

Deno.test("pathDirs() keeps existing absolute PATH dirs and leaves out those under HOME", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "spot-pathdirs-" }));
  await Deno.mkdir(join(home, ".local", "bin"), { recursive: true });
  const dirs = pathDirs(`/usr/bin:relative:${join(home, ".local", "bin")}:/no/such/dir`, home);
  assert.deepEqual(dirs, ["/usr/bin"]);
  assert.deepEqual(pathDirs(join(home, ".local", "bin"), null), [join(home, ".local", "bin")]);
  await Deno.remove(home, { recursive: true });
});
