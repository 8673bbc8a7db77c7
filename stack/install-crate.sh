#!/usr/bin/env bash
# A tool from crates.io, built into var/opt/<crate>: `install-crate.sh CRATE VERSION_KNOB RUST BINARY`
# builds CRATE at the version stack/settings.py's VERSION_KNOB pins with a cargo of Rust RUST or newer,
# unless var/opt/CRATE already has that version and its BINARY. Two use it: oha, the cross-check's
# open-loop load generator (only by `make crosscheck`: the sweep does not need it; oha 1.16 needs
# Rust 1.88), and inferno, the profiles' folded stacks and flame graphs (`make profile`, PROFILE=1;
# inferno 0.12 needs Rust 1.71). Its cargo is stack/find-cargo.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 4 ] || { echo "usage: $0 CRATE VERSION_KNOB RUST BINARY" >&2; exit 2; }
CRATE=$1 NEEDS_RUST=$3 BINARY=$4
say() { echo "$CRATE: $*"; }
die() { echo "$CRATE: $*" >&2; exit 1; }

VERSION=$(python3 -c "from stack import settings; print(settings.knob('$2'))")
root=var/opt/$CRATE
# cargo install's own record of what it installed there (not every tool has a --version).
if [ -x "$root/bin/$BINARY" ] && grep -q "^\"$CRATE $VERSION " "$root/.crates.toml" 2>/dev/null; then
  exit 0
fi

cargo=$(bash stack/find-cargo.sh "$NEEDS_RUST") || die "no cargo of Rust $NEEDS_RUST or newer"
log=var/log/$CRATE-build.log
say "building $CRATE $VERSION with $("$cargo" --version) (1-3 min on 2 cores; log $log)"
mkdir -p var/log
started=$(date +%s)
"$cargo" install --locked --version "$VERSION" --root "$root" "$CRATE" > "$log" 2>&1 \
  || { tail -20 "$log"; die "cargo install failed; full log $log"; }
say "built in $(( $(date +%s) - started )) s: $CRATE $VERSION"
