# leuctra - build, test, check (sanitizers), bench, demo, install.
#
#   make            the library (build/libleuctra.a, build/libleuctra.so) and the command (build/leuctra)
#   make test       unit tests + command-line tests; ends with "N passed, N failed"
#   make check      the same tests under ASan + UBSan, the Python fuzz harness against the sanitized
#                   library, plus a short libFuzzer run of the parsers
#   make bench      the benchmarks whose figures docs/BENCHMARKS.md records (scripts/bench-tensors.sh
#                   needs records files and a baseline build: docs/BENCHMARKS.md says how)
#   make demo       a few minutes of the main job on a small default
#   make pgo        a profile-guided build trained on `leuctra bench`
#   make install    into $(PREFIX) (default /usr/local)
#   make MPI=1      an MPI-enabled build with mpicc, into build-mpi/ (docs/CLUSTER.md)

CC      ?= cc
ARCH    ?= -march=native
OPT     ?= -O3
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wformat=2
CFLAGS  ?=
# The one version: the library's (lt_version), the command's (--version) and the Python
# package's (python/leuctra_build.py reads this line; leuctra.__version__ asks the library).
VERSION := 0.1.0
override CFLAGS += -std=c11 -D_GNU_SOURCE -DLEUCTRA_VERSION=\"$(VERSION)\" $(OPT) $(ARCH) $(WARN) -fopenmp -g -MMD -MP
LDLIBS  += -fopenmp -lz -lm -lgsl -lgslcblas
PREFIX  ?= /usr/local
BUILD   ?= build

# MPI=1: the same program compiled by mpicc with -DLEUCTRA_MPI (data/mpi_env.c then talks to
# MPI; without it, that file is a one-process stand-in and nothing needs MPI).  Its own folder by
# default, so MPI and plain objects never mix.
ifeq ($(MPI),1)
CC      := mpicc
BUILD   := build-mpi
override CFLAGS += -DLEUCTRA_MPI
endif

LIB_DIRS := core data search selfplay tuner eval engine pictures training api
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/unit/test_*.c) tests/unit/unit_main.c tests/reference/phalanx_reference.c tests/reference/reversi_reference_solve.c

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

# The shipped default weights, compiled into the library so an installed binary needs no data
# files; data/weights.c parses this text with the same parser as any weights file.
WEIGHTS_TXT := $(sort $(wildcard data/weights/*.txt data/weights/*.lwt))
GEN_OBJ  := $(BUILD)/gen/default_weights.o

LIB := $(BUILD)/libleuctra.a
BIN := $(BUILD)/leuctra
# The shared library for other languages (api/leuctra_api.h; python/leuctra loads it): the same
# sources compiled position-independent into their own folder, so the static objects are
# untouched; only the lt_* functions are exported.
SO := $(BUILD)/libleuctra.so
PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/gen/default_weights.o
UNIT := $(BUILD)/unit_tests

.PHONY: all deps test check bench demo pgo install clean fuzz mpi reversi-endgames

all: deps $(BIN) $(SO)

deps:
	@scripts/ensure-deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I. -c $< -o $@

$(BUILD)/gen/default_weights.c: $(WEIGHTS_TXT) scripts/embed-weights.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-weights.sh $(WEIGHTS_TXT) >$@.tmp && mv $@.tmp $@

$(GEN_OBJ): $(BUILD)/gen/default_weights.c
	$(CC) $(CFLAGS) -I. -c $< -o $@

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -I. -c $< -o $@

$(BUILD)/pic/gen/default_weights.o: $(BUILD)/gen/default_weights.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -I. -c $< -o $@

$(SO): $(PIC_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libleuctra.so $(PIC_OBJ) $(LDLIBS) -o $@

$(LIB): $(LIB_OBJ) $(GEN_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(CLI_OBJ) $(LIB) $(LDLIBS) -o $@

$(UNIT): $(TEST_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(TEST_OBJ) $(LIB) $(LDLIBS) -o $@

# The MPI tests (tests/cli/mpi_test.sh) build build-mpi/leuctra themselves when mpicc is there.
test: deps $(BIN) $(UNIT) $(SO)
	@LEUCTRA=$(BIN) UNIT=$(UNIT) LEUCTRA_LIB=$(abspath $(SO)) tests/run.sh

mpi:
	$(MAKE) MPI=1 build-mpi/leuctra

# Sanitizer build in its own folder so it never mixes with the optimised objects.
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The Python package's fuzz harness (tests/python/python_fuzz.py) runs once more against the sanitized
# libleuctra.so: python is not built with ASan, so the compiler's ASan runtime is preloaded, and
# leak reports are off (the interpreter keeps what it allocated until exit).  A python3 with
# numpy is taken where there is one, as tests/run.sh does.
PYTHON_NUMPY = $(shell for p in python3 /usr/bin/python3; do $$p -c 'import numpy' 2>/dev/null && { echo $$p; exit; }; done; echo python3)
check: deps
	$(MAKE) BUILD=build-san OPT=-O1 CFLAGS="$(SAN)" LDLIBS="$(SAN) -fopenmp -lz -lm -lgsl -lgslcblas" build-san/leuctra build-san/unit_tests build-san/libleuctra.so
	LEUCTRA=build-san/leuctra UNIT=build-san/unit_tests LEUCTRA_QUICK=1 tests/run.sh
	ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$$($(CC) -print-file-name=libasan.so)" LEUCTRA=build-san/leuctra \
	    LEUCTRA_LIB=$(abspath build-san/libleuctra.so) $(PYTHON_NUMPY) tests/python/python_fuzz.py
	$(MAKE) fuzz

# Two harnesses: the rules' notation (tests/fuzz/fuzz_parsers.c) and the files the toolkit reads
# (tests/fuzz/fuzz_files.c).  Their committed seeds (tests/fuzz/fuzz_corpus/seed_*,
# tests/fuzz/fuzz_files_corpus/seed_*) are copied into build-fuzz/, where libFuzzer adds what it
# finds; crash files land in build-fuzz/ too.
FUZZ_SECONDS ?= 20
fuzz: $(BUILD)/gen/default_weights.c
	@mkdir -p build-fuzz/corpus
	clang -std=c11 -D_GNU_SOURCE -O1 -g -I. -fsanitize=fuzzer,address,undefined -fopenmp \
	    tests/fuzz/fuzz_parsers.c $(filter core/%,$(LIB_SRC)) -lm -o build-fuzz/fuzz_parsers
	cp tests/fuzz/fuzz_corpus/seed_* build-fuzz/corpus/
	build-fuzz/fuzz_parsers -max_total_time=$(FUZZ_SECONDS) -max_len=512 -artifact_prefix=build-fuzz/ build-fuzz/corpus
	@mkdir -p build-fuzz/files-corpus
	clang -std=c11 -D_GNU_SOURCE -O1 -g -I. -fsanitize=fuzzer,address,undefined -fopenmp \
	    tests/fuzz/fuzz_files.c $(filter core/% data/% search/% selfplay/% eval/%,$(LIB_SRC)) $(BUILD)/gen/default_weights.c \
	    -lz -lm -lgsl -lgslcblas -o build-fuzz/fuzz_files
	cp tests/fuzz/fuzz_files_corpus/seed_* build-fuzz/files-corpus/
	build-fuzz/fuzz_files -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -artifact_prefix=build-fuzz/files- build-fuzz/files-corpus

# Rebuilds tests/reference/reversi_endgames.h, the endgames whose scores the plain reference solver found
# (about 20 minutes on one core).
ENDGAMES_TOOL := $(BUILD)/make_reversi_endgames
$(ENDGAMES_TOOL): tests/reference/make_reversi_endgames.c tests/reference/reversi_reference_solve.c $(LIB)
	$(CC) $(CFLAGS) -I. tests/reference/make_reversi_endgames.c tests/reference/reversi_reference_solve.c $(LIB) $(LDLIBS) -o $@
reversi-endgames: $(ENDGAMES_TOOL)
	$(ENDGAMES_TOOL) 2026 6:6 8:6 10:6 12:6 14:6 16:6 18:4 >tests/reference/reversi_endgames.h.tmp && mv tests/reference/reversi_endgames.h.tmp tests/reference/reversi_endgames.h

bench: deps $(BIN) $(SO)
	scripts/bench.sh $(BIN)
	LEUCTRA_LIB=$(abspath $(SO)) PYTHONPATH=python $(PYTHON_NUMPY) scripts/bench_python.py
	@if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then \
	    $(MAKE) mpi >/dev/null && scripts/bench-mpi.sh build-mpi/leuctra $(BIN); \
	else echo "skipped the MPI benchmark: no mpicc/mpirun"; fi

demo: deps $(BIN)
	scripts/demo.sh $(BIN)

# The instrumented and the optimised builds share one folder, so each object finds the profile
# its instrumented twin wrote beside it; the result replaces build/leuctra.
pgo: deps
	rm -rf build-pgo
	$(MAKE) BUILD=build-pgo CFLAGS="-fprofile-generate" LDLIBS="-fprofile-generate -fopenmp -lz -lm -lgsl -lgslcblas" build-pgo/leuctra
	build-pgo/leuctra bench >/dev/null
	find build-pgo -name '*.o' -delete
	rm -f build-pgo/leuctra build-pgo/libleuctra.a
	$(MAKE) BUILD=build-pgo CFLAGS="-fprofile-use -fprofile-partial-training" build-pgo/leuctra
	mkdir -p $(BUILD) && cp build-pgo/leuctra $(BIN)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/leuctra
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/leuctra
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libleuctra.a
	install -m 755 $(SO) $(DESTDIR)$(PREFIX)/lib/libleuctra.so
	install -m 644 core/game.h api/leuctra_api.h $(DESTDIR)$(PREFIX)/include/leuctra/

clean:
	rm -rf build build-san build-fuzz build-pgo build-mpi

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(GEN_OBJ:.o=.d) $(PIC_OBJ:.o=.d)
