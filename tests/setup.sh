#!/bin/sh
# What the test suite drives for real, installed when missing, so `deno task test` works on a fresh machine:
# bubblewrap (OS sandbox), chromium (dashboard browser test), tmux (monitor, picker, progress line),
# python3-venv and python3-pytest (the Python real-repository test), nats-server (the fleet tests: executors on
# a loopback NATS JetStream) from Debian's packages, the pinned worker
# CLIs and the node test project from npm into .workers/, and the CLI's npm metadata in Deno's cache. Each
# part says whether it was there or how long it took. Fast when everything is there.
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"

# `timed NAME CMD...`: runs CMD and prints how long NAME took.
timed() {
  name="$1"
  shift
  start=$(date +%s)
  "$@"
  status=$?
  echo "setup: $name took $(($(date +%s) - start)) s (exit $status)"
  return $status
}

need=""
command -v bwrap >/dev/null 2>&1 || need="$need bubblewrap"
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
/usr/bin/python3 -c "import pytest" >/dev/null 2>&1 || need="$need python3-pytest"
/usr/bin/python3 -c "import venv, ensurepip" >/dev/null 2>&1 || need="$need python3-venv"
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || need="$need nats-server"
if [ -z "$need" ]; then
  echo "setup: bubblewrap, chromium, tmux, python3-venv, python3-pytest and nats-server are installed"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt_install() {
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need) >/dev/null 2>&1
  }
  timed "apt-get install$need" apt_install ||
    echo "warning: could not install$need; the tests that need them will fail"
else
  echo "warning: missing$need (install them as root); the tests that need them will fail"
fi

timed "worker CLIs (.workers/)" sh "$here/workers/install.sh" ||
  echo "warning: worker CLI install failed; the conformance tests will fail"

# The node project the real-repository tests install into their source checkouts (tests/projects/).
project="$root/.workers/node-project"
if cmp -s "$here/fixtures/node-project/package-lock.json" "$project/package-lock.json" && [ -d "$project/node_modules" ]; then
  echo "setup: the node test project is installed"
else
  install_project() {
    rm -rf "$project" && mkdir -p "$project" &&
      cp "$here/fixtures/node-project/package.json" "$here/fixtures/node-project/package-lock.json" "$project/" &&
      (cd "$project" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  }
  timed "the node test project (.workers/node-project)" install_project ||
    echo "warning: could not install the node test project; the real-repository tests will fail"
fi

# Tests start the CLI as `deno run --config deno.json cli.ts` and read its stderr. On a fresh machine
# `deno task` installs the npm tarballs from deno.lock without their registry metadata, and Deno 2.9 then
# fetches that metadata again (printing "Download https://registry.npmjs.org/...") in every process whose
# npm graph differs from the last one resolved, without ever keeping it: those lines would land in
# whichever CLI test ran next. Fetching the CLI's metadata once with --reload=npm: keeps it in the cache
# (the versions stay the ones deno.lock pins), so the CLI's stderr is its own from the first test on.
# Every source file is an entry: verbs load their modules lazily (base/lazy.ts), out of sight of cli.ts's graph.
sources="$(find "$root" -name '*.ts' ! -name '*_test.ts' ! -path '*/tests/*' ! -path '*/bench/*' \
  ! -path '*/.workers/*' ! -path '*/test-output/*' ! -path '*/node_modules/*' ! -path '*/dist/*')"
npm_cache="$(deno info --json 2>/dev/null | sed -n 's/.*"npmCache": "\(.*\)".*/\1/p')"
if [ -n "$npm_cache" ] && [ -f "$npm_cache/registry.npmjs.org/zod/registry.json" ] &&
  [ -f "$npm_cache/registry.npmjs.org/@nats-io/nats-core/registry.json" ]; then
  echo "setup: the CLI's npm metadata is in Deno's cache"
else
  timed "the CLI's npm metadata in Deno's cache" \
    deno cache --quiet --reload=npm: --config "$root/deno.json" $sources ||
    echo "warning: could not cache cli.ts's npm metadata; the first CLI test may see Deno's download lines"
fi
# spot runs its commands from a JavaScript copy of itself (boot/copy.ts), which the first command after the
# sources change makes (about a second, and Deno's bundler fetched from npm the first time). Made here, so no
# test pays for it and no test's process fetches anything.
timed "spot's JavaScript copy of itself (.js-copy/)" \
  deno run --no-prompt --allow-all --config "$root/deno.json" "$root/boot/copy_build.ts" ||
  echo "warning: could not make spot's JavaScript copy; commands run from the sources"
exit 0
