/** The run ledger (store/ledger.ts) against real processes: a lease of a live owner stays, a dead owner's is carried out. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { selfStamp, startTicks } from "../../base/proc_table.ts";
import { tempIndexPath } from "../../git/temp_index.ts";
import { processAlive, spawnProcess } from "../../sandbox/spawn.ts";
import {
  hasLeftovers,
  type Lease,
  leasesDir,
  readLeases,
  reclaimLedger,
  takeLease,
} from "../../store/ledger.ts";
import { writeJsonAtomic } from "../../store/files.ts";

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

/** A process that ran and ended: its stamp is what a crashed owner's lease would hold. */
async function deadStamp(): Promise<{ pid: number; start: number | null }> {
  let pid = 0;
  let start: number | null = null;
  await spawnProcess(["sleep", "0.2"], {
    env: ENV,
    onSpawn: (p) => {
      pid = p;
      start = startTicks(p);
    },
  });
  return { pid, start };
}

/** A lease as a process that has since died wrote it. */
async function orphanLease(ledger: string, lease: Partial<Lease>): Promise<void> {
  const id = `${lease.kind}-orphan-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.mkdir(leasesDir(ledger), { recursive: true });
  await writeJsonAtomic(join(leasesDir(ledger), `${id}.json`), {
    schemaVersion: 1,
    id,
    what: "test",
    at: new Date().toISOString(),
    owner: await deadStamp(),
    ...lease,
  });
}

Deno.test("a lease is on record from before its resource exists until it is released", async () => {
  const ledger = await Deno.makeTempDir();
  const lease = await takeLease(ledger, { kind: "dir", what: "socket directory", path: join(ledger, "x") });
  const [{ lease: recorded }] = await readLeases(ledger);
  assert.deepEqual([recorded.kind, recorded.path, recorded.owner], ["dir", join(ledger, "x"), selfStamp()]);
  assert.equal(await hasLeftovers(ledger), true);
  // Its owner (this process) still runs: it is in use, and nothing reclaims it.
  await Deno.mkdir(join(ledger, "x"));
  assert.deepEqual(await reclaimLedger(ledger, ledger), []);
  assert.ok((await Deno.stat(join(ledger, "x"))).isDirectory);
  await lease.release();
  assert.deepEqual(await readLeases(ledger), []);
  await Deno.remove(ledger, { recursive: true });
});

Deno.test("reclaimLedger() removes what a dead owner left: its directory, its process group, its temp indexes", async () => {
  const ledger = await Deno.makeTempDir();
  const dir = join(ledger, "socket-dir");
  await Deno.mkdir(dir);
  await Deno.writeTextFile(join(dir, "s.sock"), "");
  await orphanLease(ledger, { kind: "dir", what: "provider forwarder socket directory", path: dir });
  // An orphaned step: alive, in a group of its own, recorded with its start time.
  let stepPid = 0;
  const step = spawnProcess(["sleep", "60"], { env: ENV, onSpawn: (p) => stepPid = p, reapGroup: false });
  while (!stepPid) await new Promise((r) => setTimeout(r, 10));
  await orphanLease(ledger, {
    kind: "process",
    what: "worker step",
    processes: [{ pid: stepPid, start: startTicks(stepPid) }],
  });
  // A recorded pid whose start no longer matches is another process now: it is never signalled.
  let otherPid = 0;
  const other = spawnProcess(["sleep", "60"], { env: ENV, onSpawn: (p) => otherPid = p, reapGroup: false });
  while (!otherPid) await new Promise((r) => setTimeout(r, 10));
  await orphanLease(ledger, {
    kind: "process",
    what: "verify step",
    processes: [{ pid: otherPid, start: 1 }],
  });
  const dead = await deadStamp();
  const staleIndex = join(ledger, `.delta-${dead.pid}-${dead.start}-0123abcd.index`);
  await Deno.writeTextFile(staleIndex, "");
  const liveIndex = tempIndexPath(ledger, "delta");
  await Deno.writeTextFile(liveIndex, "");

  // A lease naming a path outside spot's directories is struck off, and the path left alone.
  const outside = await Deno.makeTempDir({ prefix: "not-spot-" });
  await orphanLease(ledger, { kind: "dir", what: "forged", path: outside });
  const reclaimed = (await reclaimLedger(ledger, ledger)).filter((r) => r.what !== "forged");
  assert.ok((await Deno.stat(outside)).isDirectory, "a path outside spot's directories was deleted");
  await Deno.remove(outside);
  assert.deepEqual(reclaimed.map((r) => r.kind).sort(), ["dir", "process", "process", "temp-index"]);
  assert.equal(await Deno.stat(dir).catch(() => null), null);
  assert.equal((await step).signal, "SIGKILL");
  assert.equal(processAlive(otherPid), true, "a reused pid was signalled");
  assert.equal(await Deno.stat(staleIndex).catch(() => null), null);
  assert.ok(await Deno.stat(liveIndex), "the index of a live maker was removed");
  assert.deepEqual(await readLeases(ledger), []);
  Deno.kill(otherPid, "SIGKILL");
  await other;
  await Deno.remove(ledger, { recursive: true });
});
