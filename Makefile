# Rokade build. `make` builds ./rokade for this machine; ARCH= picks an
# instruction-set level (below) or any -march value; TARGET= another system;
# NO_PEXT=1 forces magic bitboards; TUNE=1 lists the search constants as UCI
# options; NNUE_HIDDEN=H builds for nets of H accumulator values.
#
# TARGET (README.md, "Download or build"):
#   (empty)      this machine's system, with the compiler CC (cc)
#   windows      Windows x86-64 with mingw-w64 (x86_64-w64-mingw32-gcc),
#                static: rokade.exe needs no DLL beside it
#   linux-arm64  Linux on ARM64 (aarch64-linux-gnu-gcc), static; ARCH armv8
#   linux        Linux on x86-64, static (the release's Linux binaries)
# ARCH: native (default: this CPU), or a level of the releases:
#   x86-64               SSE2, the baseline of every x86-64 CPU
#   x86-64-sse41-popcnt  SSSE3, SSE4.1 and POPCNT (2008 on)
#   x86-64-avx2          AVX2 and BMI1 (Intel 2013, AMD 2015 on)
#   x86-64-bmi2          AVX2 and BMI2's PEXT for the sliders (not for AMD
#                        before Zen 3, whose PEXT is slow: use avx2 there)
#   x86-64-avx512        AVX-512 F and BW
#   x86-64-vnni512       AVX-512 VNNI
#   armv8                ARM64 with NEON (every ARM64 CPU)
#   armv8-dotprod        ARMv8.2 with the dot product
#   apple-silicon        Apple M1 and later (clang on macOS)
# Any other value is passed as -march=ARCH.
TARGET  ?=
ifeq ($(TARGET),windows)
  ifeq ($(origin CC),default)
    CC := x86_64-w64-mingw32-gcc
  endif
  EXE_EXT := .exe
  TARGET_LDFLAGS := -static
  # mingw-w64's C99 printf (%zu, %lld), not msvcrt's.
  TARGET_CFLAGS := -D__USE_MINGW_ANSI_STDIO=1
else ifeq ($(TARGET),linux-arm64)
  ifeq ($(origin CC),default)
    CC := aarch64-linux-gnu-gcc
  endif
  ARCH ?= armv8
  TARGET_LDFLAGS := -static
else ifeq ($(TARGET),linux)
  TARGET_LDFLAGS := -static
else ifneq ($(TARGET),)
  $(error unknown TARGET=$(TARGET): use windows, linux-arm64, linux or none)
endif
CC      ?= cc
ARCH    ?= native
EXE     ?= rokade$(EXE_EXT)
ARCH_x86-64              := -march=x86-64
ARCH_x86-64-sse41-popcnt := -march=x86-64 -msse4.1 -mpopcnt
ARCH_x86-64-avx2         := $(ARCH_x86-64-sse41-popcnt) -mavx2 -mbmi
ARCH_x86-64-bmi2         := $(ARCH_x86-64-avx2) -mbmi2
ARCH_x86-64-avx512       := $(ARCH_x86-64-bmi2) -mavx512f -mavx512bw
ARCH_x86-64-vnni512      := $(ARCH_x86-64-avx512) -mavx512vnni
ARCH_armv8               := -march=armv8-a
ARCH_armv8-dotprod       := -march=armv8.2-a+dotprod
ARCH_apple-silicon       := -mcpu=apple-m1
ARCH_FLAGS := $(or $(ARCH_$(ARCH)),-march=$(ARCH))
# The CPU check (engine/cpu.c) is compiled for the architecture's baseline,
# so that it runs, and tells what is missing, on any CPU.
ifneq ($(filter x86-64% native,$(ARCH))$(filter -march=x86-64% -march=native,$(ARCH_FLAGS)),)
  BASE_ARCH_FLAGS := -march=x86-64
endif
ifneq ($(filter armv8% apple-silicon,$(ARCH)),)
  BASE_ARCH_FLAGS := -march=armv8-a
endif
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wmissing-declarations -Wcast-qual -Wpointer-arith
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L
OPT     ?= -O3 -DNDEBUG
SAN     ?=
override CFLAGS := $(OPT) $(SAN) $(CSTD) $(WARN) $(ARCH_FLAGS) $(TARGET_CFLAGS) \
                   -DROKADE_ARCH='"$(ARCH)"' -pthread -MMD -MP $(CFLAGS)
CPU_CHECK_CFLAGS = $(filter-out $(ARCH_FLAGS),$(CFLAGS)) $(BASE_ARCH_FLAGS)
override LDFLAGS := -pthread $(SAN) $(TARGET_LDFLAGS) $(LDFLAGS)
LDLIBS  += -lm
# The version (engine/version.h, the one place it is written).
VERSION := $(shell sed -n 's/^\#define ROKADE_VERSION "\(.*\)"/\1/p' engine/version.h)

# PEXT is used when -march gives BMI2, except for Zen 1/2 (microcoded PEXT):
# movegen/attacks.h decides from the compiler's predefined macros.
ifeq ($(NO_PEXT),1)
  override CFLAGS += -DNO_PEXT
endif
# NNUE_HIDDEN=H: a build for nets of another accumulator size (eval/nnue/format.h;
# default 256); give it the net too, e.g.
# make NNUE_HIDDEN=128 EVALFILE=eval/nets/ft10n.nnue BUILD=build/h128 EXE=rokade-h128.
ifdef NNUE_HIDDEN
  override CFLAGS += -DNNUE_HIDDEN=$(NNUE_HIDDEN)
endif
# NNUE_SIMD=portable: the net's kernels in plain C whatever the CPU
# (eval/nnue/simd.h), the floor that the SIMD versions are tested and
# measured against.
ifeq ($(NNUE_SIMD),portable)
  override CFLAGS += -DNNUE_SIMD_PORTABLE
else ifneq ($(NNUE_SIMD),)
  $(error unknown NNUE_SIMD=$(NNUE_SIMD): use portable, or leave it out)
endif
# NNUE_KING_LAYOUT=N: a build for nets of another input layout
# (eval/nnue/features.h: 1 one bucket, the nets up to ft12h; 4 king buckets
# on the mirrored board; 5, the default, king buckets unmirrored), engine and
# trainer alike; build it apart with its net, e.g. make NNUE_KING_LAYOUT=1
# BUILD=build/k1 EXE=build/k1/rokade TRAIN_EXE=build/k1/rokade-train
# EVALFILE=eval/nets/ft12h.nnue all train (a net of one king bucket can start
# a layout-5 trainer: rokade-train --init).
ifdef NNUE_KING_LAYOUT
  override CFLAGS += -DNNUE_KING_LAYOUT=$(NNUE_KING_LAYOUT)
endif
# TUNE=1: the search constants (search/tunables.h) become UCI spin options,
# for SPSA tuning (OpenBench); build it apart, e.g. make TUNE=1 BUILD=build/tune.
ifeq ($(TUNE),1)
  override CFLAGS += -DTUNE
endif

# The programs that are not the engine, each in a folder of its own that the
# engine never includes: the evaluation tuner and the network's trainer (its
# code is also linked by tests/test_train.c).
TUNE_SRC := eval/tune/tune.c
TRAIN_SRC := eval/train/train.c eval/train/cli.c
TRAIN_MAIN_SRC := eval/train/main.c
LIB_SRC := $(wildcard movegen/*.c) $(wildcard movegen/records/*.c) $(wildcard movegen/platform/*.c) \
           $(wildcard eval/*.c) $(wildcard eval/nnue/*.c) $(wildcard eval/syzygy/*.c) \
           $(wildcard search/*.c) $(wildcard perft/*.c) $(wildcard bench/*.c) \
           $(filter-out engine/main.c,$(wildcard engine/*.c))
MAIN_SRC := engine/main.c
BUILD   ?= build/release
# The net built into the program (eval/embed.sh turns it into C source); the
# program has none when the file does not exist.
EVALFILE ?= eval/default.nnue
EMBED_OBJ := $(BUILD)/eval/nnue_embed.o
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(EMBED_OBJ)
MAIN_OBJ := $(MAIN_SRC:%.c=$(BUILD)/%.o)
TUNE_OBJ := $(TUNE_SRC:%.c=$(BUILD)/%.o)
TUNE_EXE ?= rokade-tune
TRAIN_OBJ := $(TRAIN_SRC:%.c=$(BUILD)/%.o)
TRAIN_MAIN_OBJ := $(TRAIN_MAIN_SRC:%.c=$(BUILD)/%.o)
TRAIN_EXE ?= rokade-train
TEST_SRC := $(wildcard tests/test_*.c)

.PHONY: FORCE release test-simd test-cross cross-tools test-nnue-layout test-tunable all tune train tune-sample magics debug cppcheck lint stress sanitize tsan test-tsan fuzz fuzz-toolchain fuzz-bins fuzz-run test test-sanitize test-run test-bins-run test-debug werror format-check format perft perft-quick bench perft-speed clean

all: $(EXE)

$(EXE): $(LIB_OBJ) $(MAIN_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/engine/cpu.o: engine/cpu.c
	@mkdir -p $(dir $@)
	$(CC) $(CPU_CHECK_CFLAGS) -c -o $@ $<

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TUNE_OBJ:.o=.d) $(TRAIN_OBJ:.o=.d) \
         $(TRAIN_MAIN_OBJ:.o=.d)

# The net's identity, its path and checksum, rewritten only when it changes:
# the embedded net follows EVALFILE and the file's content, not its
# modification time (a net moved into place by git mv or mv keeps an older
# one, and another EVALFILE in the same BUILD may be older too).
$(BUILD)/eval/nnue_embed.id: FORCE
	@mkdir -p $(dir $@)
	@id="$(EVALFILE) $$(if [ -f '$(EVALFILE)' ]; then cksum < '$(EVALFILE)'; else echo none; fi)"; \
	  [ -f $@ ] && [ "$$(cat $@)" = "$$id" ] || echo "$$id" > $@

$(BUILD)/eval/nnue_embed.c: eval/embed.sh $(BUILD)/eval/nnue_embed.id
	@mkdir -p $(dir $@)
	sh eval/embed.sh $(EVALFILE) > $@

FORCE:

$(EMBED_OBJ): $(BUILD)/eval/nnue_embed.c
	$(CC) $(CFLAGS) -I. -c -o $@ $<

# The evaluation tuner (eval/tune/, eval/README.md): ./rokade-tune FILE...
tune: $(TUNE_EXE)

$(TUNE_EXE): $(TUNE_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The network's trainer (eval/train/, eval/README.md): ./rokade-train --help
train: $(TRAIN_EXE)

$(TRAIN_EXE): $(TRAIN_MAIN_OBJ) $(TRAIN_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Regenerates the tuner's test data, tests/data/tune_sample.bin, with
# tests/gen_tune_sample.c (self-play at a fixed depth; see that file).
$(BUILD)/gen_tune_sample: tests/gen_tune_sample.c $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

-include $(BUILD)/gen_tune_sample.d

tune-sample: $(BUILD)/gen_tune_sample
	./$(BUILD)/gen_tune_sample tests/data/tune_sample.bin

# Endgame openings (5-7 pieces) from self-play games, for the Syzygy
# matches (bench/tools/endgame_fens.c, bench/README.md).
$(BUILD)/endgame_fens: bench/tools/endgame_fens.c $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

# Prints the magic numbers of movegen/attacks.c, found by tests/gen_magics.c
# (a seeded search: the same numbers on every run).
$(BUILD)/gen_magics: tests/gen_magics.c $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

-include $(BUILD)/gen_magics.d

magics: $(BUILD)/gen_magics
	$(BUILD)/gen_magics

# Assertions on (no NDEBUG): among them the Position's self-check after every
# make and unmake (pos_is_consistent).
debug:
	$(MAKE) BUILD=build/debug EXE=rokade-debug OPT="-O1 -g"

# The sanitizer build is portable (ARCH=x86-64), so it checks the magic
# bitboards while the default build checks PEXT; with -O1 -g and no NDEBUG
# its assertions are on, so it is also `make test`'s debug run.
# TEST_SKIP=huge-hash: the tests skip the largest table the machine can give,
# whose shadow ASan writes in full (the step took 212 s with it, 148 s
# without; the release run sets it, as does `make test-debug`).
sanitize: criterion
	$(MAKE) BUILD=build/sanitize EXE=rokade-sanitize TUNE_EXE=rokade-tune-sanitize \
	  TRAIN_EXE=rokade-train-sanitize TEST_SKIP=huge-hash \
	  ARCH=x86-64 OPT="-O1 -g" \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" test-run

tsan:
	$(MAKE) BUILD=build/tsan EXE=rokade-tsan OPT="-O1 -g" SAN="-fsanitize=thread" rokade-tsan

# Threads 2 and 4 under ThreadSanitizer with go/stop/ponderhit/setoption spam,
# and Syzygy probes from 4 threads at once (tests/tb_threads.c).
test-tsan: tsan
	ROKADE=./rokade-tsan sh tests/tsan_scenario.sh
	$(MAKE) BUILD=build/tsan OPT="-O1 -g" SAN="-fsanitize=thread" build/tsan/tb_threads
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" ./build/tsan/tb_threads

# Syzygy probes from several threads (tests/tb_threads.c), for `make test-tsan`.
$(BUILD)/tb_threads: tests/tb_threads.c $(BUILD)/tests/tb_reference.o $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/tests/tb_reference.o $(LIB_OBJ) $(LDLIBS)

-include $(BUILD)/tb_threads.d

# ---- fuzzing (libFuzzer, clang) ----
# `make fuzz` builds build/fuzz/fuzz_{fen,position,uci,pgn}; `make fuzz-run` runs
# each for FUZZ_SECONDS (CI: 60, all at once) on a copy of its seed corpus
# and replays the saved crash inputs in tests/fuzz/regress/ first.
FUZZ_TARGETS := fen position uci pgn
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all

fuzz: fuzz-toolchain
	$(MAKE) CC=clang BUILD=build/fuzz ARCH=x86-64 OPT="-O1 -g" SAN="$(FUZZ_SAN)" fuzz-bins

# libFuzzer ships with clang's runtime (Debian: libclang-rt-14-dev; .ci/provision).
fuzz-toolchain:
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' \
	  > /tmp/rokade-fuzz-probe.c
	@clang -fsanitize=fuzzer -o /tmp/rokade-fuzz-probe /tmp/rokade-fuzz-probe.c >/dev/null 2>&1 || \
	 { echo "error: clang cannot build libFuzzer targets: run sh .ci/provision (as root), or apt-get install clang libclang-rt-14-dev"; exit 1; }
	@rm -f /tmp/rokade-fuzz-probe /tmp/rokade-fuzz-probe.c

fuzz-bins: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_OBJ)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

fuzz-run: fuzz
	sh tests/fuzz/run.sh build/fuzz $(FUZZ_SECONDS)

# ---- static analysis ----
# clang-tidy reads .clang-tidy; cppcheck's settings are these flags (the tests
# are left to clang-tidy, as cppcheck cannot expand Criterion's macros).
LINT_SRC := $(LIB_SRC) $(MAIN_SRC) $(TUNE_SRC) $(TRAIN_SRC) $(TRAIN_MAIN_SRC) bench/tools/endgame_fens.c $(wildcard tests/*.c) $(wildcard tests/fuzz/*.c)
CPPCHECK_FLAGS := --quiet --std=c11 --enable=style,warning,performance,portability \
  --inline-suppr --error-exitcode=1 -D__GNUC__ -D__x86_64__ -iengine/web/node_modules

# cppcheck alone (about 10 s) is in `make test`; clang-tidy over every file
# takes about 110 s on two cores, so the whole of `make lint` is run by hand.
cppcheck:
	@command -v cppcheck >/dev/null 2>&1 || \
	 { echo "error: cppcheck is missing: run sh .ci/provision (as root), or apt-get install cppcheck"; exit 1; }
	cppcheck $(CPPCHECK_FLAGS) movegen eval search perft bench engine tests/fuzz

lint: cppcheck
	@echo $(LINT_SRC) | tr ' ' '\n' | xargs -P2 -I{} sh -c \
	  'clang-tidy --quiet {} -- $(CSTD) -march=x86-64 -pthread 2>/dev/null || exit 255'
	@echo "lint: cppcheck and clang-tidy clean"

# ---- formatting (.clang-format, clang-format 14) ----
# Every source and header but eval/weights.c, which the tuner writes (one
# table entry per line with a name comment; formatting it would be undone by
# the next tuning run). `make test` runs format-check first.
CLANG_FORMAT ?= clang-format
FORMAT_SRC := $(filter-out eval/weights.c,$(wildcard movegen/*.[ch] movegen/records/*.[ch] movegen/platform/*.[ch] \
              eval/*.[ch] eval/nnue/*.[ch] eval/syzygy/*.[ch] eval/train/*.[ch] eval/tune/*.[ch] \
              search/*.[ch] \
              perft/*.[ch] bench/*.[ch] bench/tools/*.[ch] engine/*.[ch] engine/web/*.[ch] tests/*.[ch] \
              tests/fuzz/*.[ch]))

format-check:
	@command -v $(CLANG_FORMAT) >/dev/null 2>&1 || \
	 { echo "error: $(CLANG_FORMAT) is missing: run sh .ci/provision (as root), or apt-get install clang-format"; exit 1; }
	$(CLANG_FORMAT) --style=file --dry-run --Werror $(FORMAT_SRC)
	@echo "format-check: every source and header matches .clang-format"

format:
	$(CLANG_FORMAT) --style=file -i $(FORMAT_SRC)

# ---- tests (Criterion) ----
CRITERION_OK := $(shell test -f /usr/include/criterion/criterion.h && echo yes)

# Criterion must be there (.ci/provision installs it); polyglot is optional
# (tests/polyglot_test.sh skips without it).
criterion:
ifneq ($(CRITERION_OK),yes)
	@echo "error: Criterion is missing: run sh .ci/provision (as root), or apt-get install libcriterion-dev"; exit 1
endif

# Every test program links the pipe harness (tests/harness.[ch]) that
# test_uci and test_limits use to drive the engine binary.
HARNESS_OBJ := $(BUILD)/tests/harness.o

$(HARNESS_OBJ): tests/harness.c | criterion
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

-include $(HARNESS_OBJ:.o=.d)

$(BUILD)/tests/%: tests/%.c tests/harness.h $(HARNESS_OBJ) $(LIB_OBJ) | criterion
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_OBJ) $(LIB_OBJ) -lcriterion $(LDLIBS)

# A test program without Criterion (tests/standalone.h), for where Criterion
# cannot run: under qemu-user and Wine (make test-cross).
$(BUILD)/tests/standalone/%$(EXE_EXT): tests/%.c tests/standalone.h $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DTEST_STANDALONE $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

# The trainer's tests call its functions: they link its object too.
$(BUILD)/tests/test_train: tests/test_train.c tests/harness.h $(HARNESS_OBJ) $(TRAIN_OBJ) \
                           $(LIB_OBJ) | criterion
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_OBJ) $(TRAIN_OBJ) $(LIB_OBJ) -lcriterion $(LDLIBS)

# The Syzygy tests share the reference file's reader with tests/tb_threads.c.
$(BUILD)/tests/test_syzygy: tests/test_syzygy.c tests/harness.h tests/tb_reference.h \
                            $(HARNESS_OBJ) $(BUILD)/tests/tb_reference.o $(LIB_OBJ) | criterion
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_OBJ) $(BUILD)/tests/tb_reference.o $(LIB_OBJ) \
	  -lcriterion $(LDLIBS)

-include $(BUILD)/tests/tb_reference.d

TEST_BINS = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

# Runs every test program against ./$(EXE), ./$(TUNE_EXE) and ./$(TRAIN_EXE),
# each one's output also kept in its .log; sets fail=1 and adds the program to
# $$failed on a failure (shell code for the recipes below).
RUN_TEST_BINS = fail=0; failed=; for t in $(TEST_BINS); do echo "== $$t"; \
	  if ROKADE=./$(EXE) ROKADE_TUNE=./$(TUNE_EXE) ROKADE_TRAIN=./$(TRAIN_EXE) ROKADE_SKIP="$(TEST_SKIP)" \
	     $$t --jobs 2 >$$t.log 2>&1; then cat $$t.log; \
	  else cat $$t.log; fail=1; failed="$$failed $$t"; fi; done

# The end of the output names what failed and repeats the failed tests'
# assertions, so that the tail of a long CI log says what went wrong.
REPORT_FAILED = if [ $$fail = 0 ]; then echo "all test programs passed"; else \
	  for t in $$failed; do [ -f $$t.log ] && { echo "== failed in $$t:"; \
	    grep -E '^\[(----|FAIL)\]' $$t.log | grep -v '^\[----\] *$$' | tail -n 12; }; done; \
	  echo "some tests FAILED:$$failed"; exit 1; fi

test-run: $(EXE) $(TUNE_EXE) $(TRAIN_EXE) $(TEST_BINS)
	@$(RUN_TEST_BINS); \
	ROKADE=./$(EXE) sh tests/cli_test.sh || { fail=1; failed="$$failed cli_test.sh"; }; \
	ROKADE=./$(EXE) sh tests/polyglot_test.sh || { fail=1; failed="$$failed polyglot_test.sh"; }; \
	sh tests/ladder_test.sh || { fail=1; failed="$$failed ladder_test.sh"; }; \
	sh tests/sprt_test.sh || { fail=1; failed="$$failed sprt_test.sh"; }; \
	ROKADE=./$(EXE) sh tests/review_test.sh || { fail=1; failed="$$failed review_test.sh"; }; \
	$(REPORT_FAILED)

test-bins-run: $(EXE) $(TUNE_EXE) $(TRAIN_EXE) $(TEST_BINS)
	@$(RUN_TEST_BINS); \
	$(REPORT_FAILED)

# The unit tests once more on the debug build (asserts on, PEXT where the
# machine has it), against the debug engine and tuner. Not in `make test`:
# the sanitizer build has the same assertions on, over the same tests.
test-debug: criterion
	$(MAKE) BUILD=build/debug EXE=rokade-debug TUNE_EXE=rokade-tune-debug \
	  TRAIN_EXE=rokade-train-debug OPT="-O1 -g" test-bins-run

# The engine, the tuner and the trainer built with -Werror by gcc and by clang, each in its
# own build directory (clang comes with fuzz-toolchain when it is missing).
werror:
	@command -v clang >/dev/null 2>&1 || $(MAKE) fuzz-toolchain
	$(MAKE) CC=gcc BUILD=build/werror-gcc EXE=build/werror-gcc/rokade \
	  TUNE_EXE=build/werror-gcc/rokade-tune TRAIN_EXE=build/werror-gcc/rokade-train \
	  CFLAGS=-Werror all tune train
	$(MAKE) CC=clang BUILD=build/werror-clang EXE=build/werror-clang/rokade \
	  TUNE_EXE=build/werror-clang/rokade-tune TRAIN_EXE=build/werror-clang/rokade-train \
	  CFLAGS=-Werror all tune train

# The net's other input layouts (eval/nnue/features.h) and another
# accumulator size: test_nnue and test_train built with NNUE_KING_LAYOUT=4
# (mirrored) and NNUE_HIDDEN=128 (the width of the nets before ft12h), and
# with NNUE_KING_LAYOUT=1 (one bucket, the nets up to ft12h) at the default
# width, so that the mirroring, the one-bucket accumulator, and the loader
# and kernels at a width other than the default, are tested (their
# in-process tests; those through ./rokade need the default build, layout 5,
# where the refresh of a perspective whose king changed bucket and the
# trainer's factor rows are tested).
LAYOUT_TESTS = ./$(1)/tests/test_nnue --jobs 2 --filter 'nnue/@(incremental|refresh|output|loader|buckets)*' \
	  && ./$(1)/tests/test_train --jobs 2 \
	  --filter 'train/@($(2)forward_matches_reference|gradient_check|king_buckets_from_one)'
test-nnue-layout: criterion
	$(MAKE) BUILD=build/nnue-k4-h128 OPT="-O2" NNUE_KING_LAYOUT=4 NNUE_HIDDEN=128 \
	  build/nnue-k4-h128/tests/test_nnue build/nnue-k4-h128/tests/test_train
	$(call LAYOUT_TESTS,build/nnue-k4-h128,)
	$(MAKE) BUILD=build/nnue-k1 OPT="-O2" NNUE_KING_LAYOUT=1 \
	  build/nnue-k1/tests/test_nnue build/nnue-k1/tests/test_train
	$(call LAYOUT_TESTS,build/nnue-k1,features_and_target|)

# The TUNE=1 build (search constants as UCI options) against the default
# one: the same bench, and every ablation setting accepted and effective.
test-tunable: $(EXE)
	$(MAKE) TUNE=1 BUILD=build/tunable EXE=build/tunable/rokade build/tunable/rokade
	ROKADE=./$(EXE) ROKADE_TUNABLE=./build/tunable/rokade sh tests/tunable_test.sh

# The builds for Windows (mingw-w64) and ARM64, and the AVX2 level, checked
# under Wine, qemu-aarch64 and qemu-x86_64 (tests/cross_test.sh): the UCI
# session, bench against the native build, perft, Syzygy, the CPU check.
# With each engine its SIMD test (tests/test_simd.c, without Criterion):
# AVX2 under Wine, NEON under qemu.
test-cross: $(EXE) cross-tools
	$(MAKE) TARGET=windows ARCH=x86-64-avx2 BUILD=build/cross-windows \
	  EXE=build/cross-windows/rokade.exe build/cross-windows/rokade.exe \
	  build/cross-windows/tests/standalone/test_simd.exe
	$(MAKE) TARGET=linux-arm64 BUILD=build/cross-arm64 EXE=build/cross-arm64/rokade \
	  build/cross-arm64/rokade build/cross-arm64/tests/standalone/test_simd
	$(MAKE) ARCH=x86-64-avx2 BUILD=build/cross-avx2 EXE=build/cross-avx2/rokade build/cross-avx2/rokade
	ROKADE=./$(EXE) sh tests/cross_test.sh

# The SIMD layer's versions that the native build does not compile, each
# with tests/test_simd.c against scalar code (the native one is in
# test-run, AVX2 under Wine and NEON under qemu in test-cross): SSE2
# (ARCH=x86-64), SSE4.1 (its float sum takes SSE3), AVX2, and the portable
# code (NNUE_SIMD=portable); AVX2 is skipped, and said so, on a CPU without
# it.
SIMD_BUILDS := simd-sse2:x86-64: simd-sse41:x86-64-sse41-popcnt: simd-avx2:x86-64-avx2: \
               simd-portable:x86-64:portable
test-simd: criterion
	@for b in $(SIMD_BUILDS); do dir=build/$${b%%:*}; rest=$${b#*:}; arch=$${rest%%:*}; simd=$${rest#*:}; \
	  $(MAKE) --no-print-directory OPT="-O2" ARCH=$$arch NNUE_SIMD=$$simd BUILD=$$dir \
	    $$dir/tests/test_simd >/dev/null || exit 1; done
	@for b in $(SIMD_BUILDS); do dir=build/$${b%%:*}; echo "== $$dir/tests/test_simd"; \
	  case $$b in *avx2*) grep -qw avx2 /proc/cpuinfo || { echo "skipped: this CPU has no AVX2"; continue; };; esac; \
	  ./$$dir/tests/test_simd --jobs 2 || exit 1; done

cross-tools:
	@for t in x86_64-w64-mingw32-gcc aarch64-linux-gnu-gcc wine qemu-aarch64 qemu-x86_64; do \
	  command -v $$t >/dev/null 2>&1 || { echo "error: $$t is missing: run sh .ci/provision (as root), or apt-get install gcc-mingw-w64-x86-64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross wine wine64 qemu-user"; exit 1; }; done

# Every released binary into dist/ with SHA256SUMS, each one's bench checked
# where it runs (bench/release.sh; README.md, "Download or build").
release:
	sh bench/release.sh dist

# The full test command (CI): the format check and cppcheck, the -Werror
# builds (gcc and clang), unit and CLI tests and the bench signature, then
# the tests again under ASan+UBSan with assertions on (-O1 -g without NDEBUG:
# the Position's self-check after every make and unmake, as the debug build
# has), the TSan scenario, the fuzzers (60 s), the stress script and the
# browser test.
test:
	sh .ci/provision
	$(MAKE) format-check
	$(MAKE) cppcheck
	$(MAKE) -j2 werror
	$(MAKE) -j2 test-run
	$(MAKE) -j2 test-nnue-layout
	$(MAKE) -j2 test-tunable
	ROKADE=./rokade sh tests/bench_check.sh
	$(MAKE) -j2 test-simd
	$(MAKE) -j2 test-cross
	$(MAKE) -j2 sanitize
	$(MAKE) -j2 test-tsan
	$(MAKE) -j2 fuzz-run
	$(MAKE) stress
	$(MAKE) -j2 web-test

# Random valid and invalid command sequences (tests/stress.py): the release
# build and the ASan+UBSan build, fixed seeds so a failure can be replayed
# (the latter without the Hash values that set the largest table the machine
# can give: ASan's allocator takes 18 s for 18 GB; tests/test_uci.c checks
# that case once); then the SPSA driver's self-test (bench/spsa.py, its update
# on a known optimum).
PYTHON ?= python3
stress: $(EXE)
	@command -v $(PYTHON) >/dev/null 2>&1 || \
	 { echo "error: $(PYTHON) is missing: run sh .ci/provision (as root), or apt-get install python3"; exit 1; }
	$(PYTHON) tests/stress.py --engine ./$(EXE) --count 2000 --seed 1
	test -x ./rokade-sanitize && $(PYTHON) tests/stress.py --engine ./rokade-sanitize --count 400 --seed 3 --skip huge-hash
	$(PYTHON) bench/spsa.py --selftest

# ---- perft ----
perft: $(EXE)
	./$(EXE) perftsuite perft/standard.epd 6
	./$(EXE) perftsuite perft/tricky.epd 6
	./$(EXE) perftsuite perft/chess960.epd 5 chess960

perft-quick: $(EXE)
	./$(EXE) perftsuite perft/standard.epd 4
	./$(EXE) perftsuite perft/chess960.epd 3 chess960

perft-speed: $(EXE)
	sh bench/perft_speed.sh

# Rokade in the browser: web, serve, web-test.
include engine/web/web.mk

clean:
	rm -rf build rokade rokade-debug rokade-sanitize rokade-tsan rokade-tune rokade-tune-sanitize \
	  rokade-tune-debug rokade-train rokade-train-sanitize rokade-train-debug
