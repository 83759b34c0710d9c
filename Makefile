# SPDX-License-Identifier: GPL-2.0
# schedlens: one binary (build/schedlens), Check unit tests, shell tests, benchmarks, fuzzers.
#   make            build
#   make check      install what is missing, build, run every test
#   make run        install what is missing, build, run the main job
#   make asan       build and test with AddressSanitizer and UBSan
#   make bench      benchmarks that print figures (side by side with perf)
#   make fuzz       libFuzzer targets for a bounded time (FUZZ_SECONDS)
#   make test-unit  build and run the unit tests only
#   make lab        the kernel lab: checks inside Debian's 6.1 and 6.12 kernels, x86-64 and
#                   arm64, under QEMU (schedlens vm; scripts/lab.sh), and on this kernel
#   make ARCH=arm64 a static aarch64 build-arm64/schedlens, cross-built against Debian's
#                   arm64 libraries (scripts/deps-arm64.sh makes build/sysroot-arm64 and
#                   build/deps-arm64); `make ARCH=arm64 test-unit` runs the unit tests,
#                   linked statically too, under qemu-aarch64-static

ARCH     ?=
ifeq ($(ARCH),arm64)
O        ?= build-arm64
CROSS_COMPILE ?= aarch64-linux-gnu-
SYSROOT  := $(CURDIR)/build/sysroot-arm64
DEPS     := $(CURDIR)/build/deps-arm64
DEPS_SH  := scripts/deps-arm64.sh
ifeq ($(origin CC),default)
CC       := $(CROSS_COMPILE)gcc --sysroot=$(SYSROOT)
endif
ifeq ($(origin AR),default)
AR       := $(CROSS_COMPILE)ar
endif
PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) PKG_CONFIG_PATH= \
              PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config
QEMU     ?= qemu-aarch64-static
DEPS_OUT := $(DEPS)/lib/libperf.a $(SYSROOT)/.schedlens-pkgs
HOST_GOALS := $(filter check test run bench asan fuzz lab,$(MAKECMDGOALS))
ifneq ($(HOST_GOALS),)
$(error ARCH=arm64 builds for another machine: '$(HOST_GOALS)' would run it here; 'make ARCH=arm64 test-unit' runs its unit tests under $(QEMU))
endif
else
ifeq ($(origin ARCH)$(filter $(ARCH),x86 x86_64 amd64),command line)
ifneq ($(ARCH),)
$(error ARCH='$(ARCH)': ARCH=arm64 cross-builds, no ARCH builds for this machine)
endif
endif
DEPS     := $(CURDIR)/build/deps
DEPS_SH  := scripts/deps.sh
DEPS_OUT := $(DEPS)/lib/libperf.a
PKG_CONFIG := pkg-config
endif
O        ?= build
V        ?= 0
ifeq ($(V),1)
Q :=
else
Q := @
endif
CC       ?= cc
VERSION  := 0.1.0
FUZZ_SECONDS ?= 60

PKGS     := libtraceevent libdw jansson gsl libzstd
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARN     := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wformat=2 -Wstrict-prototypes -Wno-format-truncation
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -D_GNU_SOURCE \
             -DSCHEDLENS_VERSION='"$(VERSION)"' -DSCHEDLENS_DATADIR='"$(CURDIR)/data"' \
             -Iinclude -Isrc/lib -I$(DEPS)/include $(PKG_CFLAGS) -MMD -MP
# The libraries are linked statically into a position-dependent binary: fifteen shared
# objects and 44,000 relative relocations cost 6 ms of every start on a VM (8.4 ms -> 2.2 ms
# task-clock for `schedlens version`), a third of a fast report. The binary takes libc too
# (2.2 -> 1.5 ms; `sched -i` of 443,988 records 1-2 ms less); the unit tests and the
# sanitizer builds (STATIC_LIBC=0) keep it shared. schedlens loads no libtraceevent plugins,
# so the linker's warning that the plugin loader's dlopen needs this glibc at run time is
# left out of the build's output. STATIC=0 links everything shared, as a PIE.
STATIC  ?= 1
STATIC_LIBC ?= 1
ifeq ($(STATIC),1)
LINK_FLAGS = -no-pie
LIBS_A   = $(DEPS)/lib/libperf.a $(DEPS)/lib/libapi.a -Wl,-Bstatic -lpfm -liberty \
           $(shell $(PKG_CONFIG) --static --libs $(PKGS) 2>/dev/null | sed 's/-pthread//g; s/-lpthread//g; s/-lm / /g')
LIBS     = $(LIBS_A) -Wl,-Bdynamic -lpthread -lm -ldl
else
LIBS     = $(DEPS)/lib/libperf.a $(DEPS)/lib/libapi.a -lpfm -liberty $(PKG_LIBS) -lpthread -lm
endif
ifeq ($(STATIC)$(STATIC_LIBC),11)
BIN_LINK = -static $(LDFLAGS) -o $@ $(CMD_OBJS) $(O)/libschedlens.a $(LIBS_A) -lpthread -lm -ldl
else
BIN_LINK = $(LINK_FLAGS) $(LDFLAGS) -o $@ $(CMD_OBJS) $(O)/libschedlens.a $(LIBS)
endif
DLOPEN_WARNING = in function .load_plugin.:|Using .dlopen. in statically linked
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)
ifeq ($(ARCH),arm64)
# qemu-aarch64-static runs the unit tests without an arm64 ld.so: static like the binary
CHECK_LIBS = $(shell $(PKG_CONFIG) --static --libs check 2>/dev/null)
TEST_LINK = -static $(LDFLAGS) -o $@ $< $(filter-out $(O)/src/main.o,$(CMD_OBJS)) \
            $(O)/libschedlens.a $(LIBS_A) $(CHECK_LIBS) -lpthread -lm -ldl
endif

LIB_SRCS := $(sort $(wildcard src/lib/*.c src/lib/*/*.c src/workloads/*.c))
CMD_SRCS := $(sort $(wildcard src/cmd/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CMD_OBJS := $(CMD_SRCS:%.c=$(O)/%.o) $(O)/src/main.o
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))
BIN      := $(O)/schedlens

.PHONY: all deps check test run asan bench fuzz clean unit-bins test-unit lab
all: $(BIN)

deps:
	@bash $(DEPS_SH)

ifeq ($(ARCH),arm64)
$(DEPS_OUT) &:
	@bash $(DEPS_SH)
else
$(DEPS)/lib/libperf.a:
	@bash scripts/deps.sh
endif

$(O)/%.o: %.c | $(DEPS_OUT)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(O)/libschedlens.a: $(LIB_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BIN): $(CMD_OBJS) $(O)/libschedlens.a
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(BIN_LINK) 2>$@.err; s=$$?; \
		grep -Ev '$(DLOPEN_WARNING)' $@.err >&2; rm -f $@.err; exit $$s

ifeq ($(ARCH),arm64)
$(O)/tests/%: tests/unit/%.c $(O)/libschedlens.a $(filter-out $(O)/src/main.o,$(CMD_OBJS))
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_LINK) 2>$@.err; s=$$?; \
		grep -Ev '$(DLOPEN_WARNING)' $@.err >&2; rm -f $@.err; exit $$s
else
$(O)/tests/%: tests/unit/%.c $(O)/libschedlens.a $(filter-out $(O)/src/main.o,$(CMD_OBJS))
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LINK_FLAGS) $(LDFLAGS) -o $@ $< $(filter-out $(O)/src/main.o,$(CMD_OBJS)) \
		$(O)/libschedlens.a $(LIBS) $(CHECK_LIBS)
endif

unit-bins: $(UNIT_BINS)

ifeq ($(ARCH),arm64)
test-unit: $(UNIT_BINS)
	@bash scripts/test-unit-qemu.sh $(O) $(QEMU)
else
test-unit: $(UNIT_BINS)
	@bash tests/run.sh --build $(O) unit/
endif

test: $(BIN) $(UNIT_BINS)
	@bash tests/run.sh --build $(O)

check: deps
	@$(MAKE) --no-print-directory test

run: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash scripts/main-job.sh $(BIN)

asan: deps
	@$(MAKE) --no-print-directory O=build-asan \
		CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wno-maybe-uninitialized" \
		LDFLAGS="-fsanitize=address,undefined" STATIC_LIBC=0 test

lab: deps
	@$(MAKE) --no-print-directory $(BIN)
	@$(MAKE) --no-print-directory ARCH=arm64
	@bash scripts/lab.sh $(BIN)

bench: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash scripts/bench.sh $(BIN)

fuzz: deps
	@bash tests/fuzz/run.sh $(FUZZ_SECONDS)

ifeq ($(ARCH),arm64)
clean:
	rm -rf $(O)
else
clean:
	rm -rf $(O) build-asan
endif

# the dependency files lie beside the objects: build/ also holds the arm64 sysroot, whose
# directories named *.d (etc/ld.so.conf.d) must not be read as makefiles
-include $(shell find $(O)/src $(O)/tests -name '*.d' -type f 2>/dev/null)
