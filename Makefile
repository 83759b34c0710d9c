# SPDX-License-Identifier: GPL-2.0
# schedlens: one binary (build/schedlens), Check unit tests, shell tests, benchmarks, fuzzers.
#   make            build
#   make check      install what is missing, build, run every test
#   make run        install what is missing, build, run the main job
#   make asan       build and test with AddressSanitizer and UBSan
#   make bench      benchmarks that print figures (side by side with perf)
#   make fuzz       libFuzzer targets for a bounded time (FUZZ_SECONDS)

O        ?= build
V        ?= 0
ifeq ($(V),1)
Q :=
else
Q := @
endif
DEPS     := $(CURDIR)/build/deps
CC       ?= cc
VERSION  := 0.1.0
FUZZ_SECONDS ?= 60

PKGS     := libtraceevent libdw jansson gsl libzstd
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN     := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wformat=2 -Wstrict-prototypes -Wno-format-truncation
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -D_GNU_SOURCE \
             -DSCHEDLENS_VERSION='"$(VERSION)"' -DSCHEDLENS_DATADIR='"$(CURDIR)/data"' \
             -Iinclude -I$(DEPS)/include $(PKG_CFLAGS) -MMD -MP
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
LIBS_A   = $(DEPS)/lib/libperf.a $(DEPS)/lib/libapi.a -Wl,-Bstatic -lpfm \
           $(shell pkg-config --static --libs $(PKGS) 2>/dev/null | sed 's/-pthread//g; s/-lpthread//g; s/-lm / /g')
LIBS     = $(LIBS_A) -Wl,-Bdynamic -lpthread -lm -ldl
else
LIBS     = $(DEPS)/lib/libperf.a $(DEPS)/lib/libapi.a -lpfm $(PKG_LIBS) -lpthread -lm
endif
ifeq ($(STATIC)$(STATIC_LIBC),11)
BIN_LINK = -static $(LDFLAGS) -o $@ $(CMD_OBJS) $(O)/libschedlens.a $(LIBS_A) -lpthread -lm -ldl
else
BIN_LINK = $(LINK_FLAGS) $(LDFLAGS) -o $@ $(CMD_OBJS) $(O)/libschedlens.a $(LIBS)
endif
DLOPEN_WARNING = in function .load_plugin.:|Using .dlopen. in statically linked
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)

LIB_SRCS := $(sort $(wildcard src/lib/*.c src/workloads/*.c))
CMD_SRCS := $(sort $(wildcard src/cmd/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CMD_OBJS := $(CMD_SRCS:%.c=$(O)/%.o) $(O)/src/main.o
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))
BIN      := $(O)/schedlens

.PHONY: all deps check test run asan bench fuzz clean unit-bins
all: $(BIN)

deps:
	@bash scripts/deps.sh

$(DEPS)/lib/libperf.a:
	@bash scripts/deps.sh

$(O)/%.o: %.c | $(DEPS)/lib/libperf.a
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(O)/libschedlens.a: $(LIB_OBJS)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(BIN): $(CMD_OBJS) $(O)/libschedlens.a
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(BIN_LINK) 2>$@.err; s=$$?; \
		grep -Ev '$(DLOPEN_WARNING)' $@.err >&2; rm -f $@.err; exit $$s

$(O)/tests/%: tests/unit/%.c $(O)/libschedlens.a $(filter-out $(O)/src/main.o,$(CMD_OBJS))
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LINK_FLAGS) $(LDFLAGS) -o $@ $< $(filter-out $(O)/src/main.o,$(CMD_OBJS)) \
		$(O)/libschedlens.a $(LIBS) $(CHECK_LIBS)

unit-bins: $(UNIT_BINS)

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

bench: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash scripts/bench.sh $(BIN)

fuzz: deps
	@bash tests/fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(O) build-asan

-include $(shell find $(O) -name '*.d' 2>/dev/null)
