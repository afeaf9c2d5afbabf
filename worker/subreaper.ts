/**
 * spot as the child subreaper of its own process tree (Linux's
 * PR_SET_CHILD_SUBREAPER): a process a worker detaches (setsid, a double
 * fork) is re-parented to spot instead of to init, so after the turn spot
 * finds it by its parent link and ends it, whatever it did to its group,
 * session or environment. Needs FFI to call prctl, which the orchestrator's
 * rights include; where it is unavailable, the tree watch alone remains.
 */

const PR_SET_CHILD_SUBREAPER = 36;
/** glibc, then the unversioned name some distributions ship. */
const LIBC_NAMES = ["libc.so.6", "libc.so"];

let state: boolean | null = null;

/** Makes this process a child subreaper, once; true when it is one. */
export function becomeSubreaper(): boolean {
  if (state !== null) return state;
  state = false;
  if (Deno.build.os !== "linux") return state;
  for (const name of LIBC_NAMES) {
    try {
      const lib = Deno.dlopen(name, {
        prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
      });
      state = lib.symbols.prctl(PR_SET_CHILD_SUBREAPER, 1n, 0n, 0n, 0n) === 0;
      break;
    } catch {
      // No such library here, or no FFI right: try the next name, then go without.
    }
  }
  return state;
}
