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

install: all
	@cmake --install $(BUILD) --prefix $(PREFIX)

# libFuzzer targets (tests/fuzz/), five minutes each; make check runs them briefly.
fuzz: deps
	@tools/fuzz.sh $${FUZZ_SECONDS:-300}

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	@clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h')

clean:
	@rm -rf $(BUILD) $(SANBUILD)
