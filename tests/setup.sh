#!/bin/sh
# What the test suite drives for real, installed when missing, so `deno task test` works on a fresh machine:
# bubblewrap (OS sandbox), chromium (dashboard browser test), tmux (monitor, picker, progress line) from
# Debian's packages, and the pinned worker CLIs from npm into .workers/. Fast when everything is there.
here="$(cd "$(dirname "$0")" && pwd)"
need=""
command -v bwrap >/dev/null 2>&1 || need="$need bubblewrap"
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
if [ -n "$need" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing$need with apt-get"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need) >/dev/null 2>&1 ||
      echo "warning: could not install$need; the tests that need them will fail"
  else
    echo "warning: missing$need (install them as root); the tests that need them will fail"
  fi
fi
sh "$here/workers/install.sh" || echo "warning: worker CLI install failed; the conformance tests will fail"
exit 0
