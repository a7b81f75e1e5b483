# eid — make targets. `make test` is the test command CI runs (.ci/run); `make demo` shows eid
# working on a fresh machine. Both install what is missing (Debian packages) first.

PREFIX ?= /usr/local
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
E2E_DIR ?= $(CURDIR)/.build-e2e
ENV := Tests/Support/pcsc-env.sh
# Release binaries carry the Swift runtime (standard library, FoundationEssentials, Dispatch)
# statically, so they run on machines without the Swift toolchain (see `make deb`), and no
# $ORIGIN run path (they look for libraries only where the system keeps them).
RELEASE := $(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath
DEB_DIR ?= $(CURDIR)/.build-deb

.PHONY: all build release symbol-order deb deb-testserver deb-test deps test unit-test serve-peer-test persosim-test proxy-test conformance conformance-report conformance-table demo bench install uninstall completions format lint clean test-pki fuzz sanitize mutants

all: build

deps:
	@$(ENV) install

build: deps
	$(SWIFT) build

release: deps
	$(RELEASE)

# The order in which the release link lays out the code the commands run and the protocol conformance
# descriptors (packaging/symbol-order.txt, read by lld: Package.swift's releaseLinking; README "Memory"):
# each command's functions as valgrind's exp-bbv sees them run (`--version`, `readers`, `change-pin`, `auth`
# against eid-testserver, `serve` with one browser activation) in the test pcscd with eid-sim, after every
# conformance descriptor (Tests/Support/symbol_order.py). Regenerate it when the start-up or a workflow's
# code changes much (a stale list costs memory, never correctness); then eid is linked again with it.
symbol-order: release
	@command -v valgrind >/dev/null || { echo "symbol-order: installing valgrind"; \
	  $$([ "$$(id -u)" -eq 0 ] || echo sudo) apt-get install -y -qq --no-install-recommends valgrind >/dev/null; }
	bin="$$($(RELEASE) --show-bin-path)"; \
	  $(ENV) run $(E2E_DIR) /usr/bin/python3 Tests/Support/symbol_order.py "$$bin" packaging/symbol-order.txt && \
	  rm -f "$$bin/eid" && $(RELEASE) --product eid

# The Debian package of eid and eid-sim (stripped), their man pages, the completions, copyright and
# changelog (packaging/debian): $(DEB_DIR)/eid_*.deb. lintian judges it; an error fails (make test's
# deb-test fails on a warning too). dpkg-dev (dpkg-shlibdeps) and lintian come with `make deps`.
deb: deps
	$(RELEASE) --product eid
	$(RELEASE) --product eid-sim
	deb=$$(packaging/build-deb.sh "$$($(RELEASE) --show-bin-path)" $(DEB_DIR)) && \
	  echo "$$deb: $$(stat -c %s "$$deb") bytes" && lintian --fail-on error "$$deb"

# eid-testserver (stripped), its man page, completions, copyright and changelog as a package of its
# own: $(DEB_DIR)/eid-testserver_*.deb (users of eid need no test server), judged by lintian as
# `make deb`. Only the packaged products are built in release mode.
deb-testserver: deps
	$(RELEASE) --product eid-testserver
	deb=$$(packaging/build-deb.sh "$$($(RELEASE) --show-bin-path)" $(DEB_DIR) eid-testserver) && \
	  echo "$$deb: $$(stat -c %s "$$deb") bytes" && lintian --fail-on error "$$deb"

# Both packages pass lintian without a warning, and the packaged eid authenticates against the
# packaged eid-testserver with the Swift toolchain hidden (part of `make test`).
deb-test: deb deb-testserver
	Tests/Support/deb-test.sh "$$(ls -t $(DEB_DIR)/eid_*.deb | head -n 1)" \
	  "$$(ls -t $(DEB_DIR)/eid-testserver_*.deb | head -n 1)"

# Unit tests and end-to-end tests through the real pcscd + vpcd + eid-sim (among them the proxy runs,
# `make proxy-test`); then AusweisApp2 as
# an independent terminal for eid-sim (change PIN), and as the client of vsmartcard's nPA emulator
# against `eid-testserver serve --pki`, also in vicc's default setup beside eid, case by case
# (Debian's python3 for python3-websockets); then AusweisApp2 and eid compared live, two suites at
# once, each with a pcscd and a reader of its own (pcsc-env.sh run DIR; the second's vpcd ports 10
# higher): the SDK authentications (ausweisapp2_auth_peer_tests.py, about 3 min; its output, kept
# in $(E2E_DIR)/auth-peer-tests.log, follows when both ended) and the port-24727 cases
# (serve-peer-test SERVE_CLIENT=live: serve_peer_tests.py, about 3 min, then a real browser,
# headless chromium, serve_browser_tests.py against `eid serve`, about 15 s; its screenshots stay
# in $(E2E_DIR)-serve). Last, the TR-03124-2 conformance report from what these runs printed (kept
# in $(CONFORMANCE_DIR)).
# PersoSim as the phone (persosim-test, before deb-test and the report) is built from the kit beside the
# clone; in a clone without ../shared it says in one line that it skipped (EID_REQUIRE_PERSOSIM=1, as
# .ci/run sets, fails instead).
test: lint build
	/usr/bin/python3 -B Tests/Support/conformance_report_tests.py
	rm -rf $(CONFORMANCE_DIR)
	$(SWIFT) build --build-tests
	EID_BIN_DIR="$$($(SWIFT) build --show-bin-path)" $(ENV) run $(E2E_DIR) \
	  $(CONFORMANCE) tee $(CONFORMANCE_DIR)/swift-test.log $(SWIFT) test --skip-build --disable-xctest
	$(ENV) run $(E2E_DIR) /usr/bin/python3 Tests/Support/ausweisapp2_peer_tests.py "$$($(SWIFT) build --show-bin-path)"
	$(ENV) run $(E2E_DIR) /usr/bin/python3 Tests/Support/vicc_auth_peer_test.py "$$($(SWIFT) build --show-bin-path)"
	$(ENV) run $(E2E_DIR) /usr/bin/python3 Tests/Support/vicc_default_setup_peer_test.py "$$($(SWIFT) build --show-bin-path)"
	mkdir -p $(E2E_DIR); $(ENV) run $(E2E_DIR) /usr/bin/python3 Tests/Support/ausweisapp2_auth_peer_tests.py \
	    "$$($(SWIFT) build --show-bin-path)" >$(E2E_DIR)/auth-peer-tests.log 2>&1 & auth=$$!; \
	  EID_E2E_BASE_PORT=$$(( $${EID_E2E_BASE_PORT:-37888} + 10 )) $(MAKE) serve-peer-test SERVE_CLIENT=live \
	    E2E_DIR=$(E2E_DIR)-serve SERVE_LOG=$(CONFORMANCE_DIR)/serve-peer-eid.log; serve=$$?; \
	  wait $$auth; auth=$$?; cat $(E2E_DIR)/auth-peer-tests.log; [ $$serve -eq 0 ] && [ $$auth -eq 0 ]
	$(MAKE) persosim-test
	$(MAKE) deb-test
	$(MAKE) conformance-report

# The eID client on port 24727 (issue 17) under test: SERVE_CLIENT=ausweisapp2 (the reference,
# AusweisApp2 headless; default), SERVE_CLIENT=eid (`eid serve` of this build) or SERVE_CLIENT=live
# (both, each case on AusweisApp2 then on eid, compared live; the browser tests then run against
# eid). Its HTTP answers, WebSocket SDK, browser-style activations with every eid-testserver fault
# and RUN_CHANGE_PIN (serve_peer_tests.py), then a real browser, headless chromium
# (serve_browser_tests.py). What AusweisApp2 answers: Tests/Support/SERVE-PEER.md. `make test`
# runs it with SERVE_CLIENT=live.
# SERVE_LOG=FILE keeps serve_peer_tests.py's output there too (make test: for the conformance report).
SERVE_CLIENT ?= ausweisapp2
SERVE_LOG ?=
serve-peer-test: build
	bin="$$($(SWIFT) build --show-bin-path)"; client="$(SERVE_CLIENT)"; [ "$$client" != eid ] || client="$$bin"; \
	  browser="$$client"; [ "$$client" != live ] || browser="$$bin"; \
	  $(ENV) run $(E2E_DIR) $(if $(SERVE_LOG),$(CONFORMANCE) tee $(SERVE_LOG)) \
	    /usr/bin/python3 Tests/Support/serve_peer_tests.py "$$bin" "$$client" && \
	  $(ENV) run $(E2E_DIR) /usr/bin/python3 Tests/Support/serve_browser_tests.py "$$bin" "$$browser"

# eid's remote IFD client (issue 20) against PersoSim's remote IFD server, the independent phone side
# (persosim_peer_tests.py: pairing, readers, PACE and change PIN in basic and PIN-pad mode, a wrong
# PIN, the card taken off the phone and put back; README "PersoSim"). PersoSim (Java, GPL-3.0) comes
# as a kit of its exported sources, at $(PERSOSIM_KIT): ../shared/peers/persosim beside the clone,
# read-only in CI. Tests/Support/persosim-kit.sh copies it into $(PERSOSIM_BUILD) (git-ignored) and
# builds it there with Debian's JDK and jars (make deps), once: again only when the kit changed.
# PersoSim runs as a separate process; nothing of it is linked into eid or kept in the repository.
# Without the kit it prints one line, that the PersoSim cases were skipped and why, and passes;
# with EID_REQUIRE_PERSOSIM=1 (.ci/run) that is a failure.
PERSOSIM_KIT ?= $(CURDIR)/../shared/peers/persosim
PERSOSIM_BUILD ?= $(CURDIR)/.build-persosim
persosim-test: build
	@if [ ! -f "$(PERSOSIM_KIT)/build.sh" ]; then \
	  if [ "$${EID_REQUIRE_PERSOSIM:-0}" = 1 ]; then \
	    echo "persosim-test: FAILED: no PersoSim kit at $(PERSOSIM_KIT), and EID_REQUIRE_PERSOSIM=1 requires the PersoSim cases"; exit 1; \
	  fi; \
	  echo "persosim-test: PersoSim cases skipped: no PersoSim kit at $(PERSOSIM_KIT) (a clone without ../shared; PERSOSIM_KIT=DIR names one)"; \
	  exit 0; \
	fi; \
	Tests/Support/persosim-kit.sh "$(PERSOSIM_KIT)" "$(PERSOSIM_BUILD)" && \
	echo "PERSOSIM_DIR=$(PERSOSIM_BUILD) $(ENV) run $(E2E_DIR) /usr/bin/python3 Tests/Support/persosim_peer_tests.py BIN_DIR" && \
	PERSOSIM_DIR="$(PERSOSIM_BUILD)" $(ENV) run $(E2E_DIR) \
	  /usr/bin/python3 Tests/Support/persosim_peer_tests.py "$$($(SWIFT) build --show-bin-path)"

# TR-03124-2's A1, A2, A4 and E a second time through an HTTP CONNECT proxy: Debian's tinyproxy, which the
# tests start on loopback themselves (EndToEndTests' ProxyTests), and the proxy variables read as curl reads
# them (TLSTests' HTTPProxyTests). Part of `make test`; this runs them alone.
proxy-test: build
	$(SWIFT) build --build-tests
	EID_BIN_DIR="$$($(SWIFT) build --show-bin-path)" $(ENV) run $(E2E_DIR) $(SWIFT) test --skip-build --disable-xctest \
	  --filter 'ProxyTests|HTTPProxyTests'

# BSI TR-03124-2 v1.3 conformance (issue 18; README "TR-03124-2 conformance", docs/testing.md "The
# conformance report"): one line per test case of the catalogue Tests/Conformance/TR-03124-2.tsv (ID,
# pass/n.a./FAIL/missing, the tests that check it), then the counts. A case is green only when it has
# a test and every one of its tests passed: one that failed, was skipped or did not run turns it red,
# n.a. cases too (their tests assert why they do not apply); the report then exits 1.
# Tests name their cases: `@Test("EID_CLIENT_A2_05: …")`, peer cases `EID_CLIENT_A1_05: …`.
# `make conformance` builds once and runs only those tests: the Swift ones (--filter by their
# function names, Tests/Support/conformance.py swift-filter) and eid serve's peer cases
# (serve_peer_tests.py with the word EID_CLIENT_), prints the report whatever they gave, and fails
# when swift test, the peer cases or the report failed. `make test` runs everything anyway and reports
# from its own output (conformance-report); it runs the report's own rules first
# (conformance_report_tests.py). `make conformance-table` writes the README's table
# (between <!-- conformance-table --> and <!-- /conformance-table -->) from the catalogue and the
# test names in the sources.
CONFORMANCE_DIR ?= $(CURDIR)/.build-conformance
CONFORMANCE := /usr/bin/python3 -B Tests/Support/conformance.py
conformance: build
	$(SWIFT) build --build-tests
	rm -rf $(CONFORMANCE_DIR)
	bin="$$($(SWIFT) build --show-bin-path)"; status=0; \
	  EID_BIN_DIR="$$bin" $(ENV) run $(E2E_DIR) $(CONFORMANCE) tee $(CONFORMANCE_DIR)/swift-test.log \
	    $(SWIFT) test --skip-build --disable-xctest --filter "$$($(CONFORMANCE) swift-filter)" || status=$$?; \
	  $(ENV) run $(E2E_DIR) $(CONFORMANCE) tee $(CONFORMANCE_DIR)/serve-peer-eid.log \
	    /usr/bin/python3 Tests/Support/serve_peer_tests.py "$$bin" "$$bin" EID_CLIENT_ || status=$$?; \
	  $(CONFORMANCE) report $(CONFORMANCE_DIR)/*.log || status=$$?; \
	  exit $$status

conformance-report:
	@$(CONFORMANCE) report $(wildcard $(CONFORMANCE_DIR)/*.log)

conformance-table:
	$(CONFORMANCE) table README.md

# Unit tests only (no pcscd needed).
unit-test: build
	$(SWIFT) test

demo: build
	@$(ENV) run $(E2E_DIR) Tests/Support/demo.sh "$$($(SWIFT) build --show-bin-path)"

bench: release
	@[ -x /usr/bin/time ] || { echo "bench: installing time (GNU time measures peak RSS)"; \
	  $$([ "$$(id -u)" -eq 0 ] || echo sudo) apt-get install -y -qq --no-install-recommends time >/dev/null; }
	@$(ENV) run $(E2E_DIR) /usr/bin/python3 Tests/Support/bench.py "$$($(RELEASE) --show-bin-path)"

# libFuzzer over what comes from outside (Tests/Fuzz/README.md): each fuzz-<target> executable
# runs FUZZ_SECONDS over its seeds (Tests/Fuzz/Corpus/<target>), FUZZ_JOBS at a time; a table of
# executions and crashes is printed and written to $(FUZZ_DIR)/summary.txt. `make test` only
# replays the corpora (FuzzCorpusTests).
# How it builds: only the fuzz products (--product; EID_FUZZ=1 declares them in Package.swift),
# in release mode (optimised, so more executions per second) with -sanitize=fuzzer,address for
# every module, in a scratch path of their own. Building the whole package this way fails:
# -sanitize=fuzzer links libFuzzer's main into eid, eid-sim and eid-testserver too, and it needs
# an LLVMFuzzerTestOneInput they lack (lld: undefined symbol). And SwiftPM points an executable's
# `main` at its module's top-level code (--defsym), so libFuzzer's main never runs anyway: the
# fuzz executables define LLVMFuzzerTestOneInput and start libFuzzer themselves
# (LLVMFuzzerRunDriver, Tests/Fuzz/Drivers/LibFuzzerDriver). They link with lld: gold, the
# default, warns about every ASan helper ("Cannot export local symbol") and, instead of naming
# an undefined symbol, stops with an internal error (dwarf_reader.cc).
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
FUZZ_DIR ?= $(CURDIR)/.build-fuzz
FUZZ_TARGETS ?= paos tc-token terminal-check security-infos card-simulator server-session ordered-json tlv
FUZZ_BUILD := EID_FUZZ=1 $(SWIFT) build -c release --scratch-path $(FUZZ_DIR) \
	-Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
fuzz: deps
	for target in $(FUZZ_TARGETS); do $(FUZZ_BUILD) --product fuzz-$$target || exit 1; done
	Tests/Fuzz/run-fuzzers.sh "$$($(FUZZ_BUILD) --show-bin-path)" $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_JOBS) $(FUZZ_TARGETS)

# The Swift test suites under sanitizers, each build in a scratch path of its own (Tests/Support/
# sanitize.sh): every unit and end-to-end suite under AddressSanitizer (with LeakSanitizer; the
# end-to-end tests run the ASan builds of eid, eid-sim and eid-testserver), then the concurrent
# suites under ThreadSanitizer. Reports go to <scratch>/reports; any error fails. No UBSan:
# swiftc refuses -sanitize=undefined on Linux, and Swift code traps on overflow, out-of-range
# indices and nil unwraps in every build anyway.
sanitize: deps
	Tests/Support/sanitize.sh address
	Tests/Support/sanitize.sh thread

# Mutation testing (docs/testing.md, "Mutation testing"; not part of `make test`): each named mutant of
# Tests/Support/mutants.json (a minimal edit of a check that keeps users safe: the secure messaging MAC,
# the send sequence counter, CommCertificates, the refresh address's origin, https for the TcToken, the
# CHAT the user chose, 63Cx, the DTD refusal, Terminal Authentication) is applied alone, built in
# .build-mutants, judged by the tests that should catch it (end-to-end ones through the test pcscd) and
# reported KILLED or SURVIVED; the source is restored after each, also on a failure or ^C. The tests first
# pass unmutated. MUTANTS="NAME ..." runs some; `Tests/Support/mutants.py --list` names them. About 7
# minutes on this 2-core machine once .build-mutants is built (its first build: 8-10 minutes more).
MUTANTS ?=
mutants: deps
	SWIFT=$(SWIFT) /usr/bin/python3 Tests/Support/mutants.py $(MUTANTS)

# Regenerates the shell completions from the argument parser (a test keeps them in step).
completions: build
	bin="$$($(SWIFT) build --show-bin-path)"; \
	"$$bin/eid" --generate-completion-script bash > completions/eid.bash; \
	"$$bin/eid" --generate-completion-script zsh > completions/_eid; \
	"$$bin/eid" --generate-completion-script fish > completions/eid.fish; \
	"$$bin/eid-sim" --generate-completion-script bash > completions/eid-sim.bash; \
	"$$bin/eid-sim" --generate-completion-script zsh > completions/_eid-sim; \
	"$$bin/eid-sim" --generate-completion-script fish > completions/eid-sim.fish; \
	"$$bin/eid-testserver" --generate-completion-script bash > completions/eid-testserver.bash; \
	"$$bin/eid-testserver" --generate-completion-script zsh > completions/_eid-testserver; \
	"$$bin/eid-testserver" --generate-completion-script fish > completions/eid-testserver.fish

# Re-creates the project's test CVCA (TEST ONLY: certificate and private key) in
# Sources/TestPKI/ProjectTestCVCA.swift with a new key, valid 30 years from today. Every
# certificate and card that trusts the old one must then be re-issued; commit the file.
test-pki: build
	"$$($(SWIFT) build --show-bin-path)/eid-test-pki" generate-cvca --output Sources/TestPKI/ProjectTestCVCA.swift

# Formats the Swift code in place with swift-format (from the toolchain; settings in .swift-format:
# indent 4, width 120). `make format FORMAT_PATHS="Sources/SDK"` limits it to some files or folders.
FORMAT_PATHS ?= Package.swift Sources Tests
# The style check `make test` runs first: any swift-format warning fails the run (a few seconds).
lint:
	$(SWIFT) format lint --strict --parallel --recursive Package.swift Sources Tests

format:
	$(SWIFT) format format --in-place --parallel --recursive $(FORMAT_PATHS)

install: release
	bin="$$($(RELEASE) --show-bin-path)"; \
	install -D -m 755 "$$bin/eid" "$(DESTDIR)$(PREFIX)/bin/eid"; \
	install -D -m 755 "$$bin/eid-sim" "$(DESTDIR)$(PREFIX)/bin/eid-sim"; \
	install -D -m 755 "$$bin/eid-testserver" "$(DESTDIR)$(PREFIX)/bin/eid-testserver"
	install -D -m 644 man/eid-sim.1 "$(DESTDIR)$(PREFIX)/share/man/man1/eid-sim.1"
	for page in eid eid-testserver; do \
	  install -D -m 644 man/$$page.1 "$(DESTDIR)$(PREFIX)/share/man/man1/$$page.1"; \
	  install -D -m 644 completions/$$page.bash "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$page"; \
	  install -D -m 644 completions/_$$page "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$page"; \
	  install -D -m 644 completions/$$page.fish "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$page.fish"; \
	done
	for unit in eid.socket eid.service; do \
	  install -d "$(DESTDIR)$(PREFIX)/lib/systemd/user"; \
	  sed 's|/usr/bin/eid|$(PREFIX)/bin/eid|' packaging/systemd/$$unit > "$(DESTDIR)$(PREFIX)/lib/systemd/user/$$unit"; \
	done
	install -d "$(DESTDIR)$(PREFIX)/share/applications"
	sed 's|/usr/bin/eid|$(PREFIX)/bin/eid|' packaging/desktop/eid.desktop > "$(DESTDIR)$(PREFIX)/share/applications/eid.desktop"

uninstall:
	for page in eid eid-testserver; do \
	  rm -f "$(DESTDIR)$(PREFIX)/share/man/man1/$$page.1" \
	    "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$page" \
	    "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$page" \
	    "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$page.fish"; \
	done
	rm -f "$(DESTDIR)$(PREFIX)/bin/eid" "$(DESTDIR)$(PREFIX)/bin/eid-sim" "$(DESTDIR)$(PREFIX)/bin/eid-testserver" \
	  "$(DESTDIR)$(PREFIX)/share/man/man1/eid-sim.1"
	rm -f "$(DESTDIR)$(PREFIX)/lib/systemd/user/eid.socket" "$(DESTDIR)$(PREFIX)/lib/systemd/user/eid.service" \
	  "$(DESTDIR)$(PREFIX)/share/applications/eid.desktop"

clean:
	rm -rf .build .build-e2e .build-fuzz .build-asan .build-tsan .build-conformance .build-persosim .build-mutants $(DEB_DIR)
