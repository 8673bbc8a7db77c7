#!/usr/bin/env bash
# oha, the cross-check's open-loop load generator, built from crates.io into var/opt/oha (only by
# `make crosscheck`, not by `make setup`: the sweep itself does not need it). Its version is a knob
# of stack/settings.py (OHA_VERSION). oha 1.16 needs Rust 1.88 or newer: when the machine's cargo is
# missing or older, Debian's cargo-web (Rust 1.96 on Debian 12) is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "oha: $*"; }
die() { echo "oha: $*" >&2; exit 1; }

OHA_VERSION=$(python3 -c 'from stack import settings; print(settings.knob("OHA_VERSION"))')
NEEDS_RUST=1.88
root=var/opt/oha
if [ -x "$root/bin/oha" ] && "$root/bin/oha" --version 2>/dev/null | grep -qx "oha $OHA_VERSION"; then
  exit 0
fi

new_enough() {  # cargo 1.95.0 (...) -> whether 1.95 >= NEEDS_RUST
  local version
  version=$("$1" --version 2>/dev/null | awk '{print $2}') || return 1
  [ -n "$version" ] && [ "$(printf '%s\n%s\n' "$NEEDS_RUST" "$version" | sort -V | head -1)" = "$NEEDS_RUST" ]
}

cargo=""
for candidate in "$(command -v cargo || true)" "$HOME/.cargo/bin/cargo" /usr/bin/cargo; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] && new_enough "$candidate"; then cargo=$candidate; break; fi
done
if [ -z "$cargo" ]; then
  [ "$(id -u)" = 0 ] || die "no cargo >= $NEEDS_RUST; install Debian's cargo-web (as root: apt-get install cargo-web)"
  say "no cargo >= $NEEDS_RUST here: installing Debian's rustc-web and cargo-web"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rustc-web cargo-web >/dev/null
  new_enough /usr/bin/cargo || die "cargo-web did not bring a cargo >= $NEEDS_RUST"
  cargo=/usr/bin/cargo
fi
say "building oha $OHA_VERSION with $("$cargo" --version) (about 3 min on 2 cores; log var/log/oha-build.log)"
mkdir -p var/log
started=$(date +%s)
"$cargo" install --locked --version "$OHA_VERSION" --root "$root" oha > var/log/oha-build.log 2>&1 \
  || { tail -20 var/log/oha-build.log; die "cargo install failed; full log var/log/oha-build.log"; }
say "built in $(( $(date +%s) - started )) s: $("$root/bin/oha" --version)"
