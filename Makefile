# gpuguide's front door. `make serve` builds the page and serves it; `make test` runs every test.
# Both install what is missing first (tools/setup.sh) and are incremental the second time.
# Build logic lives in CMakeLists.txt; this file only strings the steps together.

PORT ?= 8080
JOBS ?= $(shell nproc)
NATIVE := build/native
WEB := build/web
# Debian's Emscripten 3.1.6 needs Debian's acorn when the machine's Node.js is not Debian's (TOOLCHAIN.md).
export NODE_PATH := /usr/share/nodejs

.PHONY: help cli native page serve test test-native test-browser bench clean

help:
	@echo "make serve   build the page (dist/index.html) and serve it on http://127.0.0.1:$(PORT)/"
	@echo "make test    build everything and run every test (native doctest via ctest, then browser tests)"
	@echo "make cli     build the command-line tool at $(NATIVE)/gpuguide"
	@echo "make bench   run the native benchmarks (writes $(NATIVE)/bench.json)"
	@echo "make clean   remove build/ and dist/ (keeps the installed packages)"

$(NATIVE)/Makefile:
	cmake -S . -B $(NATIVE) -DCMAKE_BUILD_TYPE=Release

$(WEB)/Makefile:
	emcmake cmake -S . -B $(WEB) -DCMAKE_BUILD_TYPE=Release

cli:
	@tools/setup.sh native
	@$(MAKE) --no-print-directory $(NATIVE)/Makefile
	cmake --build $(NATIVE) -j$(JOBS) --target gpuguide

native:
	@tools/setup.sh web
	@$(MAKE) --no-print-directory $(NATIVE)/Makefile
	cmake --build $(NATIVE) -j$(JOBS)

page: cli
	@tools/setup.sh web
	@$(MAKE) --no-print-directory $(WEB)/Makefile
	cmake --build $(WEB) -j$(JOBS)
	@ls -l dist/index.html | awk '{printf "dist/index.html: %.2f MB\n", $$5/1e6}'

serve: page
	@echo ""
	@echo "gpuguide is served at: http://127.0.0.1:$(PORT)/   (Ctrl+C stops it; also opens from file://$(CURDIR)/dist/index.html)"
	@cd dist && exec python3 -m http.server $(PORT) --bind 127.0.0.1

test:
	@tools/setup.sh test
	@$(MAKE) --no-print-directory test-native page test-browser

test-native: native
	ctest --test-dir $(NATIVE) --output-on-failure

test-browser:
	cd tests/browser && node --test --test-reporter=spec

bench: native
	$(NATIVE)/gg_bench --benchmark_out=$(NATIVE)/bench.json --benchmark_out_format=json

clean:
	rm -rf build/native build/web dist
