# tracehunt: a crash extension for kprobes, ftrace and ring buffers in vmcores.
#
#   make                 build extensions/tracehunt.so
#   make check           unit tests + fixture tests on the whole matrix
#                        (narrow with SUITES=, SCENARIOS=, VARIANTS=)
#   make demo            install deps, build, open the "modules" fixture in crash
#   make install         install the .so where crash's "extend tracehunt.so" finds it

CRASH_INCLUDE ?= /usr/include/crash
CC ?= gcc
TARGET ?= X86_64
SANITIZE ?=
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers
PYTEST ?= /usr/bin/python3 -m pytest
EXTDIR ?= /usr/lib64/crash/extensions

ifeq ($(SANITIZE),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
endif

SRC := $(wildcard src/*.c)
LIB := $(wildcard lib/*.c)
BUILD ?= build
OBJDIR := $(BUILD)/obj$(if $(SANITIZE),-san)
OBJ := $(SRC:src/%.c=$(OBJDIR)/src/%.o) $(LIB:lib/%.c=$(OBJDIR)/lib/%.o)
SO ?= extensions/tracehunt.so

all: $(SO)

$(SO): $(OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -rdynamic $(SANFLAGS) -o $@ $(OBJ) -lelf

$(OBJDIR)/src/%.o: src/%.c src/th.h $(wildcard lib/*.h) $(CRASH_INCLUDE)/defs.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(SANFLAGS) -fPIC -D$(TARGET) -Ilib -isystem $(CRASH_INCLUDE) -c -o $@ $<

# lib/ is crash-free: no defs.h on its include path.
$(OBJDIR)/lib/%.o: lib/%.c $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(SANFLAGS) -fPIC -Ilib -c -o $@ $<

install: $(SO)
	install -D -m 0644 $(SO) $(DESTDIR)$(EXTDIR)/tracehunt.so

# ---- tests ---------------------------------------------------------------
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)

$(BUILD)/unit/%: tests/unit/%.c $(LIB) $(wildcard lib/*.h) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -fsanitize=address,undefined -Ilib -Itests/unit -o $@ $< $(LIB)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do $$t; done

# The matrix "make check" runs: every (suite, scenario, variant); narrow it
# with e.g. "make check SUITES=bookworm SCENARIOS=events VARIANTS=kdump".
# Non-host suites run in debootstrap chroots under ~/.cache/tracehunt.
SUITES ?= bullseye bookworm trixie sid
SCENARIOS ?= $(notdir $(wildcard testdata/scenarios/*))
VARIANTS ?= kdump elf kaslr filtered
export SUITES SCENARIOS VARIANTS

check: $(SO) unit
	TRACEHUNT_SO=$(abspath $(SO)) $(PYTEST) -q tests $(PYTEST_ARGS)

demo:
	bash scripts/demo

clean:
	rm -rf build extensions/tracehunt.so

.PHONY: all install unit check demo clean
