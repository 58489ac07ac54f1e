# gpuguide's front door. `make serve` builds the page and serves it; `make test` runs every test.
# Both install what is missing first (tools/setup.sh) and are incremental the second time.
# Build logic lives in CMakeLists.txt; this file only strings the steps together.

PORT ?= 8080
JOBS ?= $(shell nproc)
NATIVE := build/native
WEB := build/web
WASM_BENCH := build/wasm-bench
FUZZ := build/fuzz
ASAN := build/asan
FUZZ_SECONDS ?= 60
# Debian's Emscripten 3.1.6 needs Debian's acorn when the machine's Node.js is not Debian's (TOOLCHAIN.md).
export NODE_PATH := /usr/share/nodejs

.PHONY: help cli native page serve test test-native test-browser bench fuzz sanitize fit clean

help:
	@echo "make serve   build the page (dist/index.html) and serve it on http://127.0.0.1:$(PORT)/"
	@echo "make test    build everything and run every test (native doctest via ctest, then browser tests)"
	@echo "make cli     build the command-line tool at $(NATIVE)/gpuguide"
	@echo "make bench   run the benchmarks natively and in WebAssembly under Node.js (writes $(NATIVE)/bench.json, $(WASM_BENCH)/bench.json)"
	@echo "make sanitize  build the native tests with AddressSanitizer + UBSan ($(ASAN)) and run them"
	@echo "make fuzz    run each libFuzzer target for FUZZ_SECONDS (now $(FUZZ_SECONDS)) s (docs/hardening.md)"
	@echo "make fit     refit the time priors from the validation cases and compare with data/throughput_priors.json"
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

# The native tests share no files: ctest runs them side by side (the UI tests take most of the time).
test-native: native
	ctest --test-dir $(NATIVE) --output-on-failure -j$(JOBS)

# Reproduces every fitted number of data/throughput_priors.json (tools/fit_priors.cpp); exit 1 if one is stale.
fit:
	@tools/setup.sh native
	@$(MAKE) --no-print-directory $(NATIVE)/Makefile
	cmake --build $(NATIVE) -j$(JOBS) --target gg_fit_priors
	$(NATIVE)/gg_fit_priors

# The browser test files share no state (each has its own Chromium, server port, browser contexts and screenshot
# names), so BROWSER_JOBS of them run at once; they wait on the page's frames (window.gpuguide.frame()), not on the
# clock, so a busy machine slows them without failing them. budget.test.mjs times the page's start-up and idle CPU:
# it runs alone, after the others, so that they do not skew its numbers.
# A file that passed runs again only when the page, the file or what it reads changed (tests/browser/run.mjs says
# what the key holds); BROWSER_RERUN=1 runs every file.
BROWSER_JOBS ?= 3
test-browser:
	cd tests/browser && BROWSER_RERUN=$(BROWSER_RERUN) node run.mjs --jobs $(BROWSER_JOBS)

# The same benchmarks natively and as WebAssembly under Node.js (Google Benchmark built from Debian's source
# package for the wasm build). Node.js 20 must not use fetch() for Emscripten 3.1.6's .wasm (TOOLCHAIN.md).
$(WASM_BENCH)/Makefile:
	emcmake cmake -S . -B $(WASM_BENCH) -DCMAKE_BUILD_TYPE=Release -DGG_BENCHMARK_DIR=$(CURDIR)/build/deps/benchmark

bench:
	@tools/setup.sh bench
	cmake -S . -B $(NATIVE) -DCMAKE_BUILD_TYPE=Release >/dev/null  # (again: it finds Google Benchmark now)
	cmake --build $(NATIVE) -j$(JOBS) --target gg_bench
	$(NATIVE)/gg_bench --benchmark_out=$(NATIVE)/bench.json --benchmark_out_format=json
	@$(MAKE) --no-print-directory $(WASM_BENCH)/Makefile
	cmake --build $(WASM_BENCH) -j$(JOBS) --target gg_bench
	cd $(WASM_BENCH) && node --no-experimental-fetch gg_bench.js --benchmark_out=bench.json --benchmark_out_format=json

# Sanitizers: the native tests built with -fsanitize=address,undefined (GG_SANITIZE); any report fails the run.
$(ASAN)/Makefile:
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGG_SANITIZE=ON

sanitize:
	@tools/setup.sh web
	@$(MAKE) --no-print-directory $(ASAN)/Makefile
	cmake --build $(ASAN) -j$(JOBS) --target gpuguide gg_tests gg_ui_tests gg_fit_priors
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN) --output-on-failure

# Fuzzing: clang's libFuzzer with ASan + UBSan, asserts on (-O1 -g, no NDEBUG); tests/fuzz/run_fuzzers.sh runs
# each target for FUZZ_SECONDS and prints its executions.
$(FUZZ)/Makefile:
	cmake -S . -B $(FUZZ) -DCMAKE_CXX_COMPILER=clang++ -DGG_FUZZ=ON -DGG_SANITIZE=ON \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g"

fuzz:
	@tools/setup.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ)/Makefile
	cmake --build $(FUZZ) -j$(JOBS) --target fuzz_all
	tests/fuzz/run_fuzzers.sh $(FUZZ) $(FUZZ_SECONDS)

clean:
	rm -rf build/native build/web build/asan build/fuzz $(WASM_BENCH) dist
