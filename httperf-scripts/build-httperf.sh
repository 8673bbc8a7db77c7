#!/usr/bin/env bash
# The lab's large-body httperf: Debian's httperf 0.9.0 source with httperf-large-bodies.patch, which
# sizes --wsesslog's line buffers to the session file instead of 10,000 bytes, so a POST body of
# megabytes (echo-10000 is 1.3 MB) is sent whole. Stock httperf reads such a line in 10,000-byte
# pieces and sends a cut body. Built by `make build` into target/httperf/httperf (a quick no-op
# when it is there); the sweep runs it only for sessions stock httperf cannot read
# (harness/measure/load.py), so every other step keeps Debian's binary. Why this driver: docs/soap-engines.md.
#
# The source is Debian bookworm's orig tarball, checked against the SHA-256 of its signed .dsc
# (httperf_0.9.0-9.dsc). Debian's own patches (httperf_0.9.0-9.debian.tar.xz) are not served by the
# registry here; the lab's build is the upstream source with this one patch, configured without SSL
# (the lab never uses it; 0.9.0's SSL code predates OpenSSL 1.1).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-target/httperf}
TARBALL=httperf_0.9.0.orig.tar.gz
SHA256=e1a0bf56bcb746c04674c47b6cfa531fad24e45e9c6de02aea0d1c5f85a2bf1c
URL=http://deb.debian.org/debian/pool/main/h/httperf/$TARBALL
PATCH=httperf-scripts/httperf-large-bodies.patch
die() { echo "build-httperf: $*" >&2; exit 1; }

stamp="$OUT/built-from"
want="$SHA256 $(sha256sum "$PATCH" | cut -d' ' -f1)"
if [ -x "$OUT/httperf" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi

mkdir -p var/cache "$OUT"
if ! echo "$SHA256  var/cache/$TARBALL" | sha256sum -c --status 2>/dev/null; then
  curl -fsS --retry 3 -o "var/cache/$TARBALL.part" "$URL" || die "cannot download $URL"
  echo "$SHA256  var/cache/$TARBALL.part" | sha256sum -c --status || die "$URL does not match Debian's checksum"
  mv "var/cache/$TARBALL.part" "var/cache/$TARBALL"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "var/cache/$TARBALL" -C "$work"
patch -s -d "$work/httperf-0.9.0" -p1 < "$PATCH"
(cd "$work/httperf-0.9.0" && ac_cv_header_openssl_ssl_h=no ./configure -q > configure.log 2>&1 && make -s > make.log 2>&1) \
  || die "build failed: $(tail -5 "$work"/httperf-0.9.0/{configure,make}.log 2>/dev/null)"
install -m 0755 "$work/httperf-0.9.0/src/httperf" "$OUT/httperf"
echo "$want" > "$stamp"
