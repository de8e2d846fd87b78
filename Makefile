# Thin wrapper over CMake: the commands the README documents.
BUILD    ?= build
SANBUILD ?= build-san
PREFIX   ?= /usr/local
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps check check-plain check-san demo bench install format format-check clean fuzz

all: $(BUILD)/Makefile
	@cmake --build $(BUILD) -j $(JOBS)

$(BUILD)/Makefile: CMakeLists.txt
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS) >/dev/null

$(SANBUILD)/Makefile: CMakeLists.txt
	@cmake -S . -B $(SANBUILD) -DCMAKE_BUILD_TYPE=Debug -DTRAX_SANITIZE=address,undefined $(CMAKE_FLAGS) >/dev/null

# Installs what the tests need (Debian packages) when it is missing.
deps:
	@tools/install-deps.sh test

check: deps all $(SANBUILD)/Makefile
	@$(MAKE) --no-print-directory format-check
	@cmake --build $(SANBUILD) -j $(JOBS)
	@echo "== tests (release build) =="
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 600
	@echo "== tests (AddressSanitizer + UndefinedBehaviorSanitizer) =="
	@cd $(SANBUILD) && ctest --output-on-failure -j $(JOBS) --timeout 600 -LE nosan

demo: all
	@tools/demo.sh $(BUILD)

bench: all
	@tools/install-deps.sh bench
	@bench/run.sh $(BUILD)
	@bench/reader.sh $(BUILD)
	@bench/daemon.sh $(BUILD)
	@bench/kernel.sh $(BUILD)
	@bench/analyses.sh $(BUILD)
	@bench/legacy.sh $(BUILD)
	@BENCH_LEGACY_FORMAT=v0 BENCH_LEGACY_N=300000 bench/legacy.sh $(BUILD)

install: all
	@cmake --install $(BUILD) --prefix $(PREFIX)

# libFuzzer targets (tests/fuzz/), five minutes each; make check runs them briefly.
# Then trax view against babeltrace2 on generated kernel traces of hundreds of
# MB, every configuration (tests/integration/view_kernel.sh; make check runs
# it on traces of a few MB).
fuzz: deps all
	@tools/fuzz.sh $${FUZZ_SECONDS:-300}
	@TRAX_BUILD=$(abspath $(BUILD)) TRAX_SRC=$(CURDIR) TRAX_GEN_FULL=1 \
		TRAX_GEN_SEEDS="$${TRAX_GEN_SEEDS:-101 102 103}" TRAX_GEN_MIB=$${TRAX_GEN_MIB:-256} \
		sh tests/integration/view_kernel.sh

# The project's own C; examples/ and the test programs under
# tests/integration/data keep the layout of the documentation they copy.
FORMATTED = $$(git ls-files 'src/*.[ch]' 'include/*.h' 'tests/unit/*.c' 'tests/reader/*.c' 'tests/fuzz/*.c' 'bench/*.c')

format:
	@clang-format -i $(FORMATTED)

format-check:
	@clang-format --dry-run --Werror $(FORMATTED) || { echo "make format fixes the layout" >&2; exit 1; }

clean:
	@rm -rf $(BUILD) $(SANBUILD)
