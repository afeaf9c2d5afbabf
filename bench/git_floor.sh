#!/usr/bin/env bash
# The "git floor": the same git commands one spot loop runs (prepare, verify, approve,
# integrate, cleanup), with the same hardening, and nothing else. Usage: git_floor.sh REPO WORKTREE RUNID
set -euo pipefail
repo="$1" wt="$2" id="$3"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_OPTIONAL_LOCKS=0 LANG=C LC_ALL=C
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost
g() { git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.quotePath=false -c diff.external= "$@"; }
fingerprint() {
  g -C "$repo" rev-parse --verify 'HEAD^{commit}' >/dev/null
  g -C "$repo" symbolic-ref --quiet --short HEAD >/dev/null || true
  g -C "$repo" status --porcelain=v1 -z --untracked-files=all >/dev/null
  g -C "$repo" diff --binary --no-ext-diff --no-textconv HEAD >/dev/null
  g -C "$repo" ls-files --others --exclude-standard -z >/dev/null
}
content() {
  g -C "$repo" status --porcelain=v1 -z --untracked-files=all >/dev/null
  g -C "$repo" diff --binary --no-ext-diff --no-textconv HEAD >/dev/null
  g -C "$repo" ls-files --others --exclude-standard -z >/dev/null
}
escape_snapshot() {
  g -C "$repo" rev-parse --path-format=absolute --git-common-dir >/dev/null
  g -C "$repo" for-each-ref '--format=%(refname) %(objectname)' >/dev/null
  content
}
delta() {
  local idx; idx="$(mktemp -u)"
  GIT_INDEX_FILE="$idx" g -C "$wt" read-tree "$base"
  GIT_INDEX_FILE="$idx" g -C "$wt" add --all -- .
  tree="$(GIT_INDEX_FILE="$idx" g -C "$wt" write-tree)"
  rm -f "$idx"
  g -C "$wt" diff --no-renames --full-index --binary --no-ext-diff --no-textconv "$base" "$tree" -- | sha256sum >/dev/null
}
# prepare
g -C "$repo" rev-parse --show-toplevel >/dev/null
base="$(g -C "$repo" rev-parse --verify 'HEAD^{commit}')"
fingerprint
g -C "$repo" config --get user.name >/dev/null || true
g -C "$repo" config --get user.email >/dev/null || true
g -C "$repo" rev-parse --verify --quiet "refs/heads/pi-worker/$id" >/dev/null || true
g -C "$repo" worktree add --quiet -b "pi-worker/$id" "$wt" "$base"
g -C "$repo" ls-tree -r -z --full-tree "$base" >/dev/null
escape_snapshot
# the instant episode
printf 'export const answer = 42;\n' > "$wt/src/answer.ts"
escape_snapshot
# verify: delta, scan's fingerprint, the lock check, the check in a pristine tree
delta; fingerprint
g -C "$repo" ls-tree -r -z --full-tree "$tree" >/dev/null
pristine="$(printf 'pristine\n' | g -C "$repo" commit-tree "$tree" -p "$base" -F -)"
g -C "$repo" worktree add --quiet --detach "$wt.pristine" "$pristine"
true
g -C "$repo" worktree remove --force "$wt.pristine"
g -C "$repo" worktree prune
# approve: fresh delta, fingerprint, lock check, commit the tree
delta; fingerprint
g -C "$repo" ls-tree -r -z --full-tree "$tree" >/dev/null
commit="$(printf 'bench\n' | g -C "$wt" commit-tree "$tree" -p "$base" -F -)"
old="$(g -C "$wt" rev-parse "refs/heads/pi-worker/$id")"
g -C "$wt" update-ref "refs/heads/pi-worker/$id" "$commit" "$old"
# integrate
g -C "$repo" rev-parse HEAD^ >/dev/null 2>&1 || true
fingerprint
g -C "$repo" cherry-pick --no-edit --allow-empty "$commit" >/dev/null
g -C "$repo" rev-parse HEAD >/dev/null
true
# cleanup
g -C "$repo" worktree remove --force "$wt"
g -C "$repo" worktree prune
g -C "$repo" branch -D "pi-worker/$id" >/dev/null
