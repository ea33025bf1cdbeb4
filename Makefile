# vrender: the two commands a newcomer needs are `make demo` and `make test`. Both install the
# Debian packages they miss (scripts/install-deps.sh), build, and run. Idempotent.
SHELL := /bin/bash
SWIFT ?= swift
BIN_RELEASE := .build/release/vrender
TEST_MEDIA := .build/test-media
DEMO_OUT := out/demo

.PHONY: all deps build release demo test test-media bench bench-export clean help

all: build

help:
	@echo "make demo    install what is missing, build, export the takes in testdata/ with mono"
	@echo "make test    install what is missing, build, run every test"
	@echo "make bench   run the benchmarks (Benchmarks/, a package of its own)"

deps:
	@scripts/install-deps.sh
	@command -v $(SWIFT) >/dev/null || { echo "make: swift not found: install Swift 6.1 or later (swift.org) and put it on PATH" >&2; exit 1; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product vrender

demo: release
	@mkdir -p $(DEMO_OUT)
	$(BIN_RELEASE) concat testdata/takes/take1.mov testdata/takes/take2.mov testdata/takes/take3.mp4 \
		--filter mono -o $(DEMO_OUT)/export.mov --overwrite
	@echo "demo: the finished video is $(abspath $(DEMO_OUT)/export.mov)"

test-media: deps
	@scripts/make-test-media.sh $(TEST_MEDIA) >/dev/null

# Tests find their media through VRENDER_TEST_MEDIA (and make it themselves when run alone).
test: deps test-media
	VRENDER_TEST_MEDIA=$(abspath $(TEST_MEDIA)) $(SWIFT) test

bench: release
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark

bench-export: release
	Benchmarks/export-vs-ffmpeg.sh

clean:
	rm -rf .build out Benchmarks/.build
