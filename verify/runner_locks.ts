/**
 * What a check's runner reads besides the tests: the build files that can
 * steer what runs (a Makefile target, pytest's testpaths in pyproject.toml,
 * a build.rs, a deno.json task, a go.mod replace, a tsconfig include). A
 * worker that edits one can make a check pass without touching the test.
 * From each verification argv, the runner is recognised and its files are
 * locked as part of the harness (VERIFICATION_SCRIPT_CHANGED). Pure.
 */

export interface RunnerRule {
  /** What the row is about, for tests and messages. */
  runner: string;
  /** True when this argv starts the runner. */
  matches: (argv: readonly string[]) => boolean;
  /** Repo-relative globs of the files it reads. */
  files: readonly string[];
}

const base = (program: string) => program.split("/").pop() ?? program;
const named = (...names: string[]) => (argv: readonly string[]) => names.includes(base(argv[0] ?? ""));
/** `python -m pytest`, `python3 -m unittest`, and the tools themselves. */
const python = (argv: readonly string[]) =>
  /^python(\d+(\.\d+)?)?$/.test(base(argv[0] ?? "")) ||
  ["pytest", "py.test", "tox", "nox"].includes(base(argv[0] ?? ""));

const NODE_FILES = [
  "**/.npmrc",
  "**/.yarnrc",
  "**/.yarnrc.yml",
  "**/.pnpmfile.cjs",
  "**/pnpm-workspace.yaml",
  "**/tsconfig*.json",
  "**/jsconfig.json",
  "**/.babelrc*",
  "**/babel.config.*",
  "**/jest.config.*",
  "**/vitest.config.*",
  "**/vitest.workspace.*",
  "**/vite.config.*",
  "**/playwright.config.*",
  "**/.mocharc*",
  "**/ava.config.*",
  "**/.c8rc*",
  "**/.nycrc*",
];

export const RUNNER_RULES: readonly RunnerRule[] = [
  {
    runner: "make",
    matches: named("make", "gmake"),
    files: ["**/Makefile", "**/makefile", "**/GNUmakefile", "**/*.mk"],
  },
  {
    runner: "python (pytest, unittest, tox, nox)",
    matches: python,
    files: [
      "**/pyproject.toml",
      "**/setup.cfg",
      "**/setup.py",
      "**/tox.ini",
      "**/pytest.ini",
      "**/.pytest.ini",
      // pytest 9 reads its settings from these too; coverage loads the plugins .coveragerc names.
      "**/pytest.toml",
      "**/.pytest.toml",
      "**/.coveragerc",
      // The interpreter a pyenv shim resolves to for the check (workspace/runner.ts).
      "**/.python-version",
      "**/conftest.py",
      "**/noxfile.py",
      "**/sitecustomize.py",
      "**/usercustomize.py",
    ],
  },
  {
    runner: "cargo",
    matches: named("cargo"),
    files: [
      "**/Cargo.toml",
      "**/build.rs",
      ".cargo/config",
      ".cargo/config.toml",
      "rust-toolchain",
      "rust-toolchain.toml",
    ],
  },
  { runner: "deno", matches: named("deno"), files: ["**/deno.json", "**/deno.jsonc", "**/import_map.json"] },
  { runner: "go", matches: named("go"), files: ["**/go.mod", "**/go.work"] },
  { runner: "node package managers", matches: named("npm", "npx", "pnpm", "yarn", "bun"), files: NODE_FILES },
  {
    runner: "node",
    matches: named("node", "tsx", "ts-node", "vitest", "jest", "mocha", "playwright"),
    files: NODE_FILES,
  },
];

/** The lock patterns for the runners these checks start, each once. */
export function runnerLockPatterns(argv: readonly (readonly string[])[]): string[] {
  const out = new Set<string>();
  for (const cmd of argv) {
    for (const rule of RUNNER_RULES) if (rule.matches(cmd)) rule.files.forEach((f) => out.add(f));
  }
  return [...out];
}
