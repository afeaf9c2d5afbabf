#!/bin/sh
# Installs the pinned worker CLIs into the git-ignored .workers/ folder for the conformance suite.
# Idempotent: when .workers/ already holds exactly this manifest and every binary, it exits at once.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dest="$root/.workers"
stamp="$dest/.installed"

# The binaries the conformance suite runs, relative to .workers/.
bins="node_modules/.bin/pi
node_modules/opencode-linux-x64/bin/opencode
node_modules/.bin/codex
node_modules/.bin/claude
node_modules/.bin/gemini
node_modules/.bin/qwen
node_modules/.bin/kilo"

want="$(cat "$here/package.json" "$here/package-lock.json" 2>/dev/null | cksum)"
complete=yes
for b in $bins; do [ -x "$dest/$b" ] || complete=no; done
if [ "$complete" = yes ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "worker CLIs already installed in $dest"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "error: npm is not on PATH; cannot install the worker CLIs" >&2
  exit 1
fi
mkdir -p "$dest"
cp "$here/package.json" "$dest/package.json"
[ -f "$here/package-lock.json" ] && cp "$here/package-lock.json" "$dest/package-lock.json"
echo "installing worker CLIs into $dest (this takes a minute the first time)"
(cd "$dest" && npm install --no-audit --no-fund --loglevel=error)
# Keep the lock beside the manifest so the next install resolves the same tree.
[ -f "$here/package-lock.json" ] || cp "$dest/package-lock.json" "$here/package-lock.json"

missing=""
for b in $bins; do [ -x "$dest/$b" ] || missing="$missing $b"; done
if [ -n "$missing" ]; then
  echo "error: installed, but these binaries are missing:$missing" >&2
  exit 1
fi
cat "$here/package.json" "$here/package-lock.json" | cksum > "$stamp"
echo "worker CLIs installed in $dest"
