/**
 * What decides how a repo's tests run, locked by default: a worker that edits
 * these has changed the harness that grades it.
 */
export const DEFAULT_ALWAYS_LOCKED_PATHS: readonly string[] = [
  ".github/workflows/**",
  ".gitlab-ci.yml",
  ".circleci/**",
  "azure-pipelines.yml",
  "Jenkinsfile",
  "**/jest.config.*",
  "**/vitest.config.*",
  "**/vitest.workspace.*",
  "**/playwright.config.*",
  "**/cypress.config.*",
  "**/karma.conf.*",
  "**/.mocharc*",
  "**/pytest.ini",
  "**/tox.ini",
  "**/conftest.py",
  "**/noxfile.py",
];

/** package.json keys that change how the harness runs; dependencies stay editable. */
export const DEFAULT_FROZEN_PACKAGE_JSON_KEYS: readonly string[] = [
  "scripts",
  "jest",
  "vitest",
  "mocha",
  "ava",
  "nyc",
  "c8",
  "workspaces",
  "packageManager",
];
