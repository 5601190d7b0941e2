#!/usr/bin/env bash
# The SSH tunnel tests start a real OpenSSH sshd. Install Debian's openssh-server when we can (root), else say how.
set -euo pipefail
bin="${SSHD_PATH:-/usr/sbin/sshd}"
if [ -x "$bin" ] && command -v ssh-keygen >/dev/null && command -v ssh-agent >/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "sshd not found at $bin; installing Debian's openssh-server package…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server openssh-client >/dev/null
  [ -x "$bin" ] && exit 0
fi
echo "OpenSSH's sshd is required for the SSH tunnel tests and was not found at $bin." >&2
echo "Install it with:  sudo apt-get update && sudo apt-get install -y openssh-server" >&2
echo "(or set SSHD_PATH to an sshd binary)" >&2
exit 1
