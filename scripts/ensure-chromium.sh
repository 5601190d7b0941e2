#!/usr/bin/env bash
# The e2e suite drives Debian's Chromium. Install it when we can (root), else say exactly how.
set -euo pipefail
bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$bin" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Chromium not found at $bin; installing Debian's chromium package…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$bin" ] && exit 0
fi
echo "Chromium is required for the e2e tests and was not found at $bin." >&2
echo "Install it with:  sudo apt-get update && sudo apt-get install -y chromium" >&2
echo "(or set CHROMIUM_PATH to a Chromium/Chrome binary)" >&2
exit 1
