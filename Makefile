# vrender: the two commands a newcomer needs are `make demo` and `make test`. Both install the
# Debian packages they miss (scripts/install-deps.sh), build, and run. Idempotent.
SHELL := /bin/bash
SWIFT ?= swift
BIN_RELEASE := .build/release/vrender
TEST_MEDIA := .build/test-media
DEMO_OUT := out/demo

.PHONY: all deps build release demo test test-media test-vivid test-trial test-chunks-wide test-captions-wide bench bench-ci bench-export bench-many clean help

all: build

help:
	@echo "make demo    install what is missing, build, record three synthetic takes and export them with mono"
	@echo "make test    install what is missing, build, run every test"
	@echo "make test-chunks-wide  chunked exports against one pass on 60 drawn edits (trims, silence, transitions, loudness; minutes)"
	@echo "make test-captions-wide  captions on three 30 s takes in English and German, as issue 40 measures them (a minute)"
	@echo "make bench   run the benchmarks (Benchmarks/, a package of its own)"
	@echo "make docs    the library products' DocC documentation and tutorial, as a static site in out/docs"
	@echo "make examples  build and run Examples/ (the tutorial's program) and check its export"
	@echo "make bench-ci  a short run of every benchmark suite, gated on allocation counts, frame counts and costs vs memcpy"
	@echo "make performance  every comparison with ffmpeg/memcpy/one pass (minutes); rewrites the tables in docs/performance.md"
	@echo "make test-docs  run the runnable examples in README.md and docs/ and compare their output (scripts/doc-test.py)"
	@echo "make install  vrender, vrender-worker, their man pages and completions into PREFIX (default /usr/local); make deb  out/vrender_*.deb"

deps:
	@scripts/install-deps.sh
	@scripts/build-info.sh
	@command -v $(SWIFT) >/dev/null || { echo "make: swift not found: install Swift 6.1 or later (swift.org) and put it on PATH" >&2; exit 1; }

build: deps
	$(SWIFT) build

# One release build serves the demo, the scripts, `make install`, the .deb and the benchmarks: the
# Swift stdlib linked in, no RUNPATH, BIND_NOW, so it runs where no Swift is installed (and CI
# builds it once). Two products with the same flags: vrender, then the chunk worker beside it
# (its modules are vrender's, already built: the second build only links). The benchmark
# plugin's builds (Benchmarks/bench-ci.sh) reuse this build's modules instead of compiling vrender
# again when they compile to the same commands, so the flags are ones `swift package` takes too:
# the stdlib asked for with -Xswiftc, not --static-swift-stdlib (which it does not take), and
# --disable-sandbox (which the plugin needs, and which reaches swiftc's command line).
RELEASE_FLAGS := -c release -Xswiftc -static-stdlib --disable-local-rpath --disable-sandbox -Xlinker -z -Xlinker now
export RELEASE_FLAGS   # Benchmarks/bench-ci.sh builds with them
release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product vrender
	$(SWIFT) build $(RELEASE_FLAGS) --product vrender-worker

# Three synthetic takes (lens jumps, a zoom ramp, the torch) exported with mono: no camera needed.
demo: release
	$(BIN_RELEASE) demo --out $(DEMO_OUT)

test-media: deps
	@scripts/make-test-media.sh $(TEST_MEDIA) >/dev/null

# Tests find their media through VRENDER_TEST_MEDIA (and make it themselves when run alone).
# First the module graph (seconds): exports and chunk workers must not link the capture stack,
# C modules are imported internally, the CLI imports only the libraries it calls, system calls go
# through Syscall; no hand-written file over 300 lines nor function over 60 (check-sizes.py); then
# the checks' own tests (a breach planted in a copy fails each). swift-test.sh ends a failed run
# with what failed (CI shows only a run's end; the XCTest cases run first).
test: deps test-media
	scripts/check-imports.sh
	python3 scripts/check-sizes.py
	python3 -m unittest discover -s scripts/tests -p 'test_check_*.py'
	VRENDER_TEST_MEDIA=$(abspath $(TEST_MEDIA)) SWIFT=$(SWIFT) scripts/swift-test.sh

# Chunked exports against one pass (ChunkedEditPropertyTests) on 60 seeds instead of the six
# `make test` runs: random trims on 1-5 takes, 2/3/5 chunks, with and without --trim-silence,
# --cut-pauses, --transition and --loudness; every picture and the sound must be equal.
test-chunks-wide: deps
	VRENDER_WIDE=1 $(SWIFT) test --filter ChunkedEditPropertyTests

# Captions at issue 40's acceptance size (`make test` runs 8-12 s takes): three 30 s takes in
# English and in German, aligned (every word against the synthetic presenter's true time) and
# exported with trims, silence cuts and a dissolve, in one pass and in chunks (cues against the
# truth, and against ffmpeg's silencedetect). About a minute on make test's build.
test-captions-wide: deps test-media
	VRENDER_WIDE=1 VRENDER_TEST_MEDIA=$(abspath $(TEST_MEDIA)) $(SWIFT) test \
	  --filter 'ScriptAlignerTests/threeTakesInEachLanguage|CaptionsCommandTests/cuesFollowTheVoice'

# Rewrites every golden in testdata/golden/ from the current code (DemoGoldenTests with
# VRENDER_GOLDEN_UPDATE=1). The run still fails, so that the rewrite is reviewed (git diff,
# the PNGs) and committed on purpose.
.PHONY: golden-update
golden-update: deps test-media
	VRENDER_GOLDEN_UPDATE=1 VRENDER_TEST_MEDIA=$(abspath $(TEST_MEDIA)) $(SWIFT) test --filter DemoGoldenTests

# V4L2 capture against the kernel's vivid driver, booted in qemu (CI runs this too); then the
# loop closed: `vrender camera --v4l2-out` feeding vivid's output node and v4l2loopback (built
# for the VM's kernel; --install lets it apt-get the kernel headers) while vrender capture and
# ffmpeg record them, judged frame by frame (the judge's own tests first).
# A release build: under qemu's emulation a debug build's encoder can fall behind.
test-vivid: release
	VRENDER=$(BIN_RELEASE) scripts/vivid-tests.sh --install
	python3 -m unittest discover -s scripts/tests -p 'test_loop_judge.py'
	VRENDER=$(BIN_RELEASE) scripts/vivid-loop-tests.sh --install

# The Slurm engine against a real single-node cluster started under a temporary folder (CI runs
# this too); installs slurmctld, slurmd and munge when missing.
.PHONY: test-slurm
test-slurm: release
	VRENDER=$(BIN_RELEASE) scripts/slurm-tests.sh --install

# Hostile folders: links planted at every name vrender may create, decoys outside checked by
# hash and mtime before and after every command; then the attacks of scripts/hostile/ (a second
# local user, swapped links, FIFOs, floods of connections, hostile device and input strings).
# CI runs this too.
.PHONY: test-hostile
test-hostile: release
	VRENDER=$(BIN_RELEASE) scripts/hostile-folder-tests.sh
	VRENDER=$(BIN_RELEASE) scripts/hostile-attack-tests.sh

# Sound: the measuring tool's own tests (python), then a private PulseAudio server with a clap
# track played into a null sink, recorded with --audio pulse:... and judged by clap_sync.py,
# then 3 rounds on a machine kept busy by stress-ng beside ffmpeg recording the same source
# (LOAD_RUNS=10 for the acceptance's ten; CI runs this too; ALSA on a real kernel driver runs
# in test-vivid, with snd-aloop, busy rounds there too: ALSA_LOAD_RUNS).
.PHONY: test-audio
test-audio: release
	python3 -m unittest discover -s scripts/tests -p 'test_clap_sync.py'
	VRENDER=$(BIN_RELEASE) scripts/audio-device-tests.sh
	@# The PulseAudio microphone's times against a private server: a measurement, run alone here
	@# (under `make test`'s parallel suites a busy machine moves them).
	VRENDER_AUDIO_TIMING=1 $(SWIFT) test --filter 'PulseMicrophoneServerTests/periodTimesFollowTheSamples'

# The docs' runnable examples (README.md, docs/*.md: a `<!-- doc-test -->` line above a console
# block) run with the release binary and compared with what the docs show, times, sizes and
# UUIDs masked (scripts/doc-test.py; CI runs this too). First the doc-test's own tests.
.PHONY: test-docs
test-docs: release
	python3 -m unittest discover -s scripts/tests -p 'test_doc_test.py'
	VRENDER=$(abspath $(BIN_RELEASE)) python3 scripts/doc-test.py

# The studio page in a real browser: Debian's chromium driven by Playwright from PyPI against
# `vrender studio --device synthetic`, its layout at 390x844, 768x1024 and 1280x800 (touch
# targets, overlaps, contrast, the prompter's text: scripts/studio-layout-test.py, about 10 s),
# and an export's captions shown by chromium's <track>
# (scripts/captions-browser-test.py), and vrender camera as chromium's fake camera
# (scripts/camera-browser-test.py), and a smart render played through every join of copied and
# re-encoded frames (scripts/smart-render-browser-test.py, about 20 s) (CI runs this too). STUDIO_TEST_ARGS=--soak adds the 60 s
# latency, drop and CPU measurement (two 60 s takes: by hand, not in CI, whose 60 minutes it
# would strain); STUDIO_TEST_ARGS="--screenshots docs/images" rewrites the screenshots in docs/studio.md.
.PHONY: test-studio
test-studio: release
	@scripts/install-deps.sh --browser
	VRENDER=$(BIN_RELEASE) python3 scripts/studio-browser-test.py $(STUDIO_TEST_ARGS)
	VRENDER=$(BIN_RELEASE) python3 scripts/studio-layout-test.py
	VRENDER=$(BIN_RELEASE) python3 scripts/captions-browser-test.py
	VRENDER=$(BIN_RELEASE) python3 scripts/camera-browser-test.py
	VRENDER=$(BIN_RELEASE) python3 scripts/smart-render-browser-test.py

# Exports of the kinds of input users bring, judged by ffprobe/ffmpeg (CI runs this too).
test-trial: release
	scripts/trial-acceptance.sh

# DocC: the library products' documentation (export engine, capture, recording, golden frames)
# and the tutorial "Export takes from your own Swift program", one static site in out/docs
# (swift-docc-plugin). Any DocC warning fails it. DOCS_BASE: the path the site will be served
# under (e.g. DOCS_BASE=vrender for https://HOST/vrender/); empty: the site's root.
DOCS_OUT := out/docs
DOCS_TARGETS := VRenderExport VRenderCapture VRenderRecording VRenderVerify
.PHONY: docs
docs: deps
	rm -rf $(DOCS_OUT)
	@mkdir -p $(dir $(DOCS_OUT))
	$(SWIFT) package --disable-sandbox --allow-writing-to-directory $(DOCS_OUT) generate-documentation \
	  $(addprefix --target ,$(DOCS_TARGETS)) --enable-experimental-combined-documentation \
	  --transform-for-static-hosting $(if $(DOCS_BASE),--hosting-base-path $(DOCS_BASE)) \
	  --output-path $(DOCS_OUT) --warnings-as-errors
	@# The plugin exits 0 when its final merge fails (a missing folder, say): check what it wrote.
	@for target in $(DOCS_TARGETS); do \
	  page=$(DOCS_OUT)/documentation/$$(echo $$target | tr A-Z a-z)/index.html; \
	  [ -f $$page ] || { echo "docs: $$page was not written (see the plugin's output above)" >&2; exit 1; }; \
	done
	@echo "docs: $(DOCS_OUT)/ (python3 -m http.server -d $(DOCS_OUT), then http://localhost:8000/documentation/)"

# Examples/, a package of its own that uses the library products by path (the tutorial's
# program): built, run, its export judged by ffprobe/ffmpeg and checked against Examples/golden.
.PHONY: examples
examples: release
	VRENDER=$(BIN_RELEASE) SWIFT=$(SWIFT) scripts/examples.sh

bench: release
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark

# CI's gate: a short run of every suite (a minute and a half once built), checked against
# Benchmarks/Tools/BenchGate/GateRules.swift. Built in .build with RELEASE_FLAGS: after `make
# release` only the harness and the suites are compiled, not vrender again.
bench-ci: deps
	SWIFT=$(SWIFT) Benchmarks/bench-ci.sh

# The release build's flags, for scripts that build with them (Benchmarks/bench-ci.sh run alone).
.PHONY: release-flags
release-flags:
	@echo "$(RELEASE_FLAGS)"

bench-export: release
	Benchmarks/export-vs-ffmpeg.sh

# Every comparison behind docs/performance.md's tables (minutes), then the tables rewritten there.
.PHONY: performance
performance: release
	Benchmarks/performance.sh --docs

# 1,000 one-second takes and a take of an hour: plan time, copy vs ffmpeg's concat demuxer,
# peak memory, transcode linearity (about 3 minutes once its media are made).
bench-many: release
	Benchmarks/many-takes.sh

clean:
	rm -rf .build .build-static out Benchmarks/.build Examples/.build

# libFuzzer targets (Fuzz/, a package of its own) with AddressSanitizer: probe + demux of media
# files, action scripts, takes.json. Each runs FUZZ_SECONDS (default 60); a crash fails the run
# and keeps the input under .build/fuzz-out/artifacts/ (scripts/fuzz.sh prints how to replay it).
.PHONY: fuzz sanitize sanitize-address sanitize-thread
fuzz: deps
	SWIFT=$(SWIFT) scripts/fuzz.sh

# The tests of the frame ring, queues, stage threads, StageTimings, recorder/capture and export
# under AddressSanitizer, then ThreadSanitizer (scripts/sanitize.sh; each its own debug build).
sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	SWIFT=$(SWIFT) scripts/sanitize.sh address

sanitize-thread: deps
	SWIFT=$(SWIFT) scripts/sanitize.sh thread

# Packaging (scripts/package/; the file layout lives in scripts/package/stage.sh).
# `make install` copies the release build (self-contained: the Swift runtime is linked in: vrender
# and the chunk worker beside it), man pages and bash/zsh/fish completions into
# $(DESTDIR)$(PREFIX); run it as yourself: it uses sudo only for the copy when the prefix is not
# writable. The .deb packs the same binaries.
PREFIX ?= /usr/local
DESTDIR ?=
.PHONY: install uninstall deb test-install test-deb
install: release
	SWIFT=$(SWIFT) scripts/package/install.sh $(BIN_RELEASE) "$(DESTDIR)" "$(PREFIX)"

uninstall:
	scripts/package/install.sh --uninstall "$(DESTDIR)" "$(PREFIX)"

# out/vrender_<version>_<arch>.deb, lintian --pedantic clean (packaging/ holds its files).
deb: release
	@scripts/install-deps.sh --package
	SWIFT=$(SWIFT) scripts/package/build-deb.sh $(BIN_RELEASE) .build out

# make install into a fresh DESTDIR, then man, lexgrog, bash's complete, zsh, fish, uninstall
# (CI runs this too).
test-install: release
	@scripts/install-deps.sh --package
	MAKE=$(MAKE) SWIFT=$(SWIFT) scripts/package/test-install.sh

# The .deb installed with apt on a debootstrapped Debian 12 without Swift, vrender demo and
# concat run there (root or sudo; about two minutes once the .deb is built; CI runs this too).
test-deb: deb
	scripts/package/chroot-test.sh
