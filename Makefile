# tracehunt: a crash extension for kprobes, ftrace and ring buffers in vmcores.
#
#   make                 build extensions/tracehunt.so
#   make check           unit tests + fixture tests on the whole matrix
#                        (narrow with SUITES=, SCENARIOS=, VARIANTS=;
#                        make check-host: the host's suite only)
#   make demo            install deps, build, open the "modules" fixture in crash
#   make bench           timings on a big dump (bench/results/, see scripts/bench.py)
#   make install         install the .so where crash's "extend tracehunt.so" finds it

CRASH_INCLUDE ?= /usr/include/crash
CC ?= gcc
TARGET ?= X86_64
SANITIZE ?=
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers
PYTEST ?= /usr/bin/python3 -m pytest
EXTDIR ?= /usr/lib64/crash/extensions

# Object files go through ccache when it is installed (CCACHE= turns it
# off), with its cache beside the fixtures, so that a new clone (CI) finds
# the objects of the last run: the compiler's warnings are kept with them
# and replayed.  NOHASHDIR: clones at other paths share the objects (their
# debug info names the directory of the build that made them).
CCACHE ?= $(shell command -v ccache 2>/dev/null)
export CCACHE_DIR ?= $(or $(TRACEHUNT_CACHE),$(HOME)/.cache/tracehunt)/ccache
export CCACHE_NOHASHDIR ?= 1
export CCACHE_BASEDIR ?= $(CURDIR)

ifeq ($(SANITIZE),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
endif

# The layers, each a folder of src/ (docs/HACKING.md): glue -> tracefs,
# audit -> render -> model -> lib.  Everything is hidden: crash needs no
# symbol of ours (the constructor registers the commands), and two
# extensions in one crash process must not collide on a global name.
SRC := $(wildcard src/*/*.c)
VIS := -fvisibility=hidden
LIB := $(wildcard lib/*.c)
BUILD ?= build
OBJDIR := $(BUILD)/obj$(if $(SANITIZE),-san)
OBJ := $(SRC:src/%.c=$(OBJDIR)/src/%.o) $(LIB:lib/%.c=$(OBJDIR)/lib/%.o)
SO ?= extensions/tracehunt.so

all: $(SO)

$(SO): $(OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared $(SANFLAGS) $(LDFLAGS) -o $@ $(OBJ) -lelf -Wl,--no-as-needed -l:libpthread.so.0 -Wl,--as-needed

# $(call compile,FLAGS): $< to $@; what the compiler said is also kept in
# $@.log (empty when it said nothing), which test_builds_warning_free reads
# instead of building everything once more.
compile = $(CCACHE) $(CC) $(1) -c -o $@ $< 2>$@.log; s=$$?; cat $@.log >&2; exit $$s

$(OBJDIR)/src/%.o: src/%.c $(wildcard src/*/*.h) $(wildcard lib/*.h) $(CRASH_INCLUDE)/defs.h
	@mkdir -p $(dir $@)
	$(call compile,$(CPPFLAGS) $(CFLAGS) $(WARN) $(SANFLAGS) $(VIS) -fPIC -D$(TARGET) -Isrc -Ilib -isystem $(CRASH_INCLUDE))

# lib/ is crash-free: no defs.h on its include path.
$(OBJDIR)/lib/%.o: lib/%.c $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(call compile,$(CPPFLAGS) $(CFLAGS) $(WARN) $(SANFLAGS) $(VIS) -fPIC -Ilib)

install: $(SO)
	install -D -m 0644 $(SO) $(DESTDIR)$(EXTDIR)/tracehunt.so

# ---- tests ---------------------------------------------------------------
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)

# lib/ compiled once with the sanitizers, linked into every unit test
UNIT_OBJ := $(LIB:lib/%.c=$(BUILD)/unit-obj/%.o)
.SECONDARY: $(UNIT_OBJ)

$(BUILD)/unit-obj/%.o: lib/%.c $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(CFLAGS) $(WARN) -fsanitize=address,undefined -Ilib -c -o $@ $<

$(BUILD)/unit/%: tests/unit/%.c $(UNIT_OBJ) $(wildcard lib/*.h) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -fsanitize=address,undefined -Ilib -Itests/unit -o $@ $< $(UNIT_OBJ)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do $$t; done

# The matrix "make check" runs: all four kernels (5.10, 6.1, 6.12, 7.2),
# every scenario, the variants below; narrow it with e.g.
# "make check SUITES=bookworm SCENARIOS=events VARIANTS=kdump", or
# "make check-host" (the host's suite only).  Non-host suites run in
# debootstrap chroots under ~/.cache/tracehunt.
# The elf/kaslr/filtered variants run on VARIANT_SCENARIOS: by default on
# every scenario (kaslr, a boot of its own, not on the scenarios
# tests/thlib.py's NO_KASLR_BOOT names): 4 kernels x (8 scenarios x 3 + 4
# kaslr) + funcargs' sid x 4 + subbuf's 2 kernels x 3 + persist's sid x 4 +
# uprobe's 2 kernels x 3 + fprobe's 2 kernels x 3 + latency's sid-rt x 3 =
# 141 dumps from 59 boots (VARIANT_SCENARIOS=modules keeps the other
# variants to the modules scenario: 42 dumps).  sid-rt is a pseudo suite
# (scripts/fixture.py FLAVORS): sid with its PREEMPT_RT kernel, the one
# with latency tracers; only the scenarios whose SUITES file names it run
# there.
MATRIX_SUITES := bullseye bookworm trixie sid sid-rt
HOST_SUITE := $(shell . /etc/os-release 2>/dev/null; echo $${VERSION_CODENAME:-bookworm})
SUITES ?= $(MATRIX_SUITES)
# (scenarios with a BENCH_ONLY file are built by "make bench" only; those
# with a SUITES file naming no Debian suite run on a custom kernel only:
# tests/test_noftrace.py, run by "make check-noftrace"; one naming Debian
# suites runs on those only: tests/thlib.py's scenario_on())
SCENARIOS ?= $(filter-out $(notdir $(patsubst %/,%,$(dir $(wildcard testdata/scenarios/*/BENCH_ONLY) $(shell grep -LEwx 'bullseye|bookworm|trixie|sid|sid-rt' testdata/scenarios/*/SUITES)))),$(notdir $(wildcard testdata/scenarios/*)))
VARIANTS ?= kdump elf kaslr filtered
VARIANT_SCENARIOS ?= all
export SUITES SCENARIOS VARIANTS VARIANT_SCENARIOS

# (MAKEFLAGS emptied: the builds the tests run are make processes of their
# own, not part of a "make -j" jobserver)
# The default "make check" (SUITES not chosen) also runs check-noftrace,
# check-uevents and check-rhel7, those two without the tests marked
# @pytest.mark.once (the same whatever SUITES selects: its main run ran
# them; tests/conftest.py).
ifeq ($(origin SUITES),file)
CHECK_NOFTRACE ?= 1
CHECK_UEVENTS ?= 1
CHECK_RHEL7 ?= 1
endif
# (the no-ftrace fixture, a kernel build of ~12 CPU-minutes on a cold
# cache, starts first, at nice 10: it takes the CPU the fixture boots and
# crash sessions leave idle, and check-noftrace waits for it, through the
# fixture's lock, only if it is still running)
check: $(SO) unit
	$(if $(filter 1,$(CHECK_NOFTRACE)),@mkdir -p $(BUILD); \
	  (MAKEFLAGS= nice -n 10 /usr/bin/python3 scripts/fixture.py noftrace \
	   --suite bookworm-noftrace >$(BUILD)/noftrace-fixture.log 2>&1 &))
	$(if $(filter 1,$(CHECK_UEVENTS)),@mkdir -p $(BUILD); \
	  (MAKEFLAGS= nice -n 10 /usr/bin/python3 scripts/fixture.py uevents \
	   --suite trixie-uevents >$(BUILD)/uevents-fixture.log 2>&1 &))
	$(if $(filter 1,$(CHECK_RHEL7)),@mkdir -p $(BUILD); \
	  (MAKEFLAGS= nice -n 10 sh -c 'for s in $(RHEL7_SCENARIOS); do \
	   /usr/bin/python3 scripts/fixture.py $$s --suite rhel7 \
	   --variant kdump; done' >$(BUILD)/rhel7-fixture.log 2>&1 &))
	MAKEFLAGS= TRACEHUNT_SO=$(abspath $(SO)) TRACEHUNT_OBJDIR=$(abspath $(OBJDIR)) \
	  $(PYTEST) -q tests $(PYTEST_ARGS)
	$(if $(filter 1,$(CHECK_NOFTRACE)),$(MAKE) check-noftrace)
	$(if $(filter 1,$(CHECK_UEVENTS)),TRACEHUNT_ONCE_RAN=1 $(MAKE) check-uevents)
	$(if $(filter 1,$(CHECK_RHEL7)),TRACEHUNT_ONCE_RAN=1 $(MAKE) check-rhel7)

check-host:
	$(MAKE) check SUITES="$(HOST_SUITE)"

# (the default now; kept for old habits)
check-matrix:
	$(MAKE) check SUITES="$(MATRIX_SUITES)"

# Issues 2 and 4 on a kernel built without ftrace, tracing and kprobes
# (scripts/build-kernel: 40 min cold on a busy 2-core host, then cached).
check-noftrace: $(SO)
	SUITES=bookworm-noftrace TRACEHUNT_SO=$(abspath $(SO)) $(PYTEST) -q \
		tests/test_noftrace.py $(PYTEST_ARGS)
.PHONY: check-noftrace

# Issue 23's user events on a kernel built with CONFIG_USER_EVENTS from
# trixie's linux-source-6.12 (scripts/build-kernel --suite trixie, then
# cached): the scenarios whose SUITES file names trixie-uevents, through
# every test file (fixture.GENERIC_SUITES).
UEVENTS_SCENARIOS := $(notdir $(patsubst %/,%,$(dir $(shell grep -lx trixie-uevents testdata/scenarios/*/SUITES 2>/dev/null))))
check-uevents: $(SO)
	SUITES=trixie-uevents SCENARIOS="$(UEVENTS_SCENARIOS)" VARIANTS=kdump \
		TRACEHUNT_SO=$(abspath $(SO)) $(PYTEST) -q tests $(PYTEST_ARGS)
.PHONY: check-uevents

# Issue 28: RHEL 7's 3.10.0-514.el7 (scripts/build-kernel from the tarball
# in ../shared/kernels, then cached), its scenarios (a SUITES file naming
# rhel7) through every test file.
RHEL7_SCENARIOS := $(notdir $(patsubst %/,%,$(dir $(shell grep -lx rhel7 testdata/scenarios/*/SUITES 2>/dev/null))))
check-rhel7: $(SO)
	SUITES=rhel7 SCENARIOS="$(RHEL7_SCENARIOS)" VARIANTS=kdump \
		TRACEHUNT_SO=$(abspath $(SO)) $(PYTEST) -q tests $(PYTEST_ARGS)
.PHONY: check-rhel7

check-full:
	$(MAKE) check SUITES="$(MATRIX_SUITES)" VARIANT_SCENARIOS=all

demo:
	bash scripts/demo

clean:
	rm -rf build extensions/tracehunt.so

.PHONY: all install unit check check-host check-matrix check-full demo clean

# ---- fuzzing and sanitizers (issue 10) -------------------------------------
#   make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="ringbuf insn"] [FUZZ_DAMAGE=0]
#                        each libFuzzer target (clang) in turn, see fuzz/run.sh
#   make fuzz-replay     the seed and regression corpora through every target
#                        built with $(CC) and ASan+UBSan, without libFuzzer
#   make SANITIZE=1 BUILD=build/san SO=build/san/tracehunt.so check
#                        the extension built with ASan+UBSan, loaded into
#                        crash with the runtime preloaded (fuzz/san/crash);
#                        the run fails on any sanitizer report (give its own
#                        SO: a plain .so at the same path is not relinked)
FUZZ_TARGETS ?= ringbuf insn printfmt bprint walk btf elfdata
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
fuzz_lib = $(wildcard lib/$(1).c lib/$(1)_*.c)

$(BUILD)/fuzz/fuzz-%: fuzz/fuzz_%.c $(LIB) $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 $(WARN) -fsanitize=fuzzer $(FUZZ_SAN) -Ilib -o $@ \
		$< $(call fuzz_lib,$*)

$(BUILD)/fuzz/replay-%: fuzz/fuzz_%.c fuzz/replay.c $(LIB) $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(CC) -g -O1 $(WARN) $(FUZZ_SAN) -Ilib -o $@ fuzz/replay.c $< \
		$(call fuzz_lib,$*)

# make fuzz then runs the damaged-dump campaign (make damage: the crash
# side of fuzzing, real dumps mutated where the commands read them);
# FUZZ_DAMAGE=0 leaves it out
FUZZ_DAMAGE ?= 1
fuzz: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz-%)
	sh fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
	$(if $(filter 1,$(FUZZ_DAMAGE)),$(MAKE) damage)

fuzz-replay: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay-%)
	@set -e; for t in $(FUZZ_TARGETS); do \
		$(BUILD)/fuzz/replay-$$t fuzz/corpus/$$t fuzz/regress/$$t; done

ifeq ($(SANITIZE),1)
# crash itself is not instrumented: fuzz/san/crash preloads the runtime
# the .so was linked with; fuzz/san/th_sanitize.py (a pytest plugin) fails
# the session on any report left in TH_SAN_LOGDIR.
export TH_SAN_RUNTIME := $(shell $(CC) -print-file-name=libasan.so)
export TH_SAN_LOGDIR := $(abspath $(BUILD))/san-logs
export PATH := $(abspath fuzz/san):$(PATH)
export PYTHONPATH := $(abspath fuzz/san)$(if $(PYTHONPATH),:$(PYTHONPATH))
export PYTEST_ADDOPTS := -p th_sanitize $(PYTEST_ADDOPTS)
endif

# ---- the damaged-dump campaign (issue 27) -----------------------------------
#   make damage [DAMAGE_COPIES=320] [DAMAGE_SEED=27] [DAMAGE_JOBS=1]
#                        one random mutation per copy of the modules ELF dump
#                        (bookworm) at a word a clean run reads, 16 commands
#                        each; fails on a died/hung session or a silent
#                        change of the commands issue 27 names
#                        (scripts/damage-matrix.py --campaign); make check
#                        runs a slice of it (tests/test_damaged.py); then
#                        DAMAGE_UPROBE_COPIES of the uprobe ELF dump, each
#                        at a word the uprobe, file name and probe event
#                        readers read; then DAMAGE_HIST_COPIES of the
#                        options dump at the hist triggers' reads
DAMAGE_COPIES ?= 320
DAMAGE_UPROBE_COPIES ?= 80
DAMAGE_HIST_COPIES ?= 40
DAMAGE_SEED ?= 27
DAMAGE_JOBS ?= 1
damage: $(SO)
	/usr/bin/python3 scripts/damage-matrix.py --so $(abspath $(SO)) \
		--campaign $(DAMAGE_COPIES) --seed $(DAMAGE_SEED) \
		--jobs $(DAMAGE_JOBS)
	/usr/bin/python3 scripts/damage-matrix.py --so $(abspath $(SO)) \
		--scenario uprobe --labels uprobe \
		--campaign $(DAMAGE_UPROBE_COPIES) --seed $(DAMAGE_SEED) \
		--jobs $(DAMAGE_JOBS)
	/usr/bin/python3 scripts/damage-matrix.py --so $(abspath $(SO)) \
		--scenario options --labels hist \
		--campaign $(DAMAGE_HIST_COPIES) --seed $(DAMAGE_SEED) \
		--jobs $(DAMAGE_JOBS)

.PHONY: fuzz fuzz-replay damage

# ---- benchmark (issue 11) --------------------------------------------------
#   make bench [BENCH_ARGS="--runs 5 --big-runs 7"]
#                        builds the bench-only "big" fixture (once), times
#                        the commands in one crash session each, writes
#                        bench/results/DATE-KERNEL.md (see scripts/bench.py)
bench: $(SO)
	/usr/bin/python3 scripts/bench.py --so $(SO) $(BENCH_ARGS)

.PHONY: bench
