#!/usr/bin/env bash
# The path of a cargo of Rust NEEDS_RUST or newer: `find-cargo.sh NEEDS_RUST`. The machine's (on the
# PATH, rustup's in ~/.cargo/bin, Debian's), else Debian's cargo-web (Rust 1.96 on Debian 12), installed
# when run as root. Used by stack/install-crate.sh (the lab's tools) and stack/setup.sh (rust/).
set -euo pipefail
[ $# = 1 ] || { echo "usage: $0 NEEDS_RUST" >&2; exit 2; }
NEEDS_RUST=$1

new_enough() {  # cargo 1.95.0 (...) -> whether 1.95 >= NEEDS_RUST
  local version
  version=$("$1" --version 2>/dev/null | awk '{print $2}') || return 1
  [ -n "$version" ] && [ "$(printf '%s\n%s\n' "$NEEDS_RUST" "$version" | sort -V | head -1)" = "$NEEDS_RUST" ]
}

for candidate in "$(command -v cargo || true)" "$HOME/.cargo/bin/cargo" /usr/bin/cargo; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] && new_enough "$candidate"; then echo "$candidate"; exit 0; fi
done
if [ "$(id -u)" != 0 ]; then
  echo "no cargo >= $NEEDS_RUST; install Debian's cargo-web (as root: apt-get install cargo-web)" >&2
  exit 1
fi
echo "no cargo >= $NEEDS_RUST here: installing Debian's rustc-web and cargo-web" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rustc-web cargo-web >/dev/null
new_enough /usr/bin/cargo || { echo "cargo-web did not bring a cargo >= $NEEDS_RUST" >&2; exit 1; }
echo /usr/bin/cargo
