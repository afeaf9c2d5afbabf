export * from "./git.ts";
export * from "./repo.ts";
export * from "./hash.ts";
export * from "./fingerprint.ts";
export * from "./worktree.ts";
export * from "./delta.ts";
