# xnoc - top-level build.  `make deps` once on a fresh Debian 12 machine,
# then `make` (build/xnoc), `make test`, `make demo`, `make bench`.

BUILD    ?= build
CC       ?= cc
CFLAGS   ?= -O2 -g
XCFLAGS  := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -Isim_harness $(CFLAGS)
LDLIBS   := -ljansson -lelf -ldw -ldl -lm
DEBS     := build-essential verilator yosys clang lld libelf-dev libjansson-dev \
            libcadical-dev libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev \
            fonts-dejavu-core jq libclang-rt-14-dev cppcheck parallel gnuplot-nox slurm-wlm libdw-dev \
            libxml2-utils valgrind clang-format gcc-riscv64-unknown-elf

# The live view is optional: built only when SDL2 (+ ttf, image) is present.
HAVE_SDL := $(shell pkg-config --exists sdl2 SDL2_ttf SDL2_image 2>/dev/null && echo 1)
ifeq ($(HAVE_SDL),1)
XCFLAGS  += -DXNOC_HAVE_SDL $(shell pkg-config --cflags sdl2 SDL2_ttf SDL2_image)
LDLIBS   += $(shell pkg-config --libs sdl2 SDL2_ttf SDL2_image)
VIEW_SRC :=
else
VIEW_SRC := $(filter-out %/view_none.c,$(wildcard sim_harness/view/*.c))
endif
# CaDiCaL (exact schedules) is a C++ static library with a C API.
LDLIBS   += -lcadical -lstdc++

# the topology description: topo.c and one file per kind (net/topo_kind.h)
TOPO_SRC    := sim_harness/net/topo.c $(wildcard sim_harness/net/topo_*.c)
HARNESS_SRC := $(filter-out $(VIEW_SRC),$(wildcard sim_harness/*.c sim_harness/*/*.c))
HARNESS_OBJ := $(HARNESS_SRC:%.c=$(BUILD)/obj/%.o)
ASAN_OBJ    := $(HARNESS_SRC:%.c=$(BUILD)/asan/%.o)

.PHONY: all deps test test-quick unit lint format format-check synth bench demo firmware clean asan fuzz fuzz-build soak
all: $(BUILD)/xnoc firmware

$(BUILD)/xnoc: $(HARNESS_OBJ)
	@echo "  LD      $@"
	@$(CC) $(XCFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(XCFLAGS) -MMD -MP -c -o $@ $<

# The same harness under AddressSanitizer + UndefinedBehaviorSanitizer.
asan: $(BUILD)/xnoc-asan
$(BUILD)/xnoc-asan: $(ASAN_OBJ)
	@echo "  LD      $@"
	@$(CC) $(XCFLAGS) -fsanitize=address,undefined -o $@ $^ $(LDLIBS)
$(BUILD)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC/san  $<"
	@$(CC) $(XCFLAGS) -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -MMD -MP -c -o $@ $<

-include $(HARNESS_OBJ:.o=.d) $(ASAN_OBJ:.o=.d)
-include firmware/firmware.mk

# Unit-test programs (tests/unit/, tests/*_driver.c, tests/view_test.c),
# built here under ASan + UBSan; the test scripts run them (`make unit`).
UNIT_CFLAGS := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -Isim_harness
UNIT_HDRS   := $(wildcard sim_harness/*.h sim_harness/*/*.h firmware/lib/*.h firmware/coll/*.h)
COLL_LIB    := sim_harness/coll/coll.c sim_harness/coll/coll_builtin.c sim_harness/coll/qcdoc.c sim_harness/coll/dfbcast.c \
               $(TOPO_SRC) sim_harness/util/cli.c sim_harness/util/suggest.c
VIEW_TEST   := tests/view_test.c tests/view_check.c $(TOPO_SRC) sim_harness/util/cli.c sim_harness/util/suggest.c
UNIT_BINS   := $(BUILD)/tests/coll_unit $(BUILD)/tests/sched_unit $(BUILD)/tests/iss_driver $(BUILD)/tests/abi_flit \
               $(BUILD)/tests/dedupe_unit $(BUILD)/tests/endpoint_unit $(BUILD)/tests/ncfunc_unit $(BUILD)/tests/netgen_ops_unit \
               $(BUILD)/tests/vl_triggers_unit $(BUILD)/tests/select_unit $(BUILD)/tests/clos_unit $(BUILD)/tests/clos_rtl \
               $(BUILD)/tests/view_test_none $(BUILD)/tests/router_tb $(BUILD)/tests/ncu_tb $(BUILD)/tests/ncu_stream_tb \
               $(BUILD)/tests/ncu_scan_tb
ifeq ($(HAVE_SDL),1)
UNIT_BINS   += $(BUILD)/tests/view_test $(BUILD)/tests/view_test_asan
endif
SDL_FLAGS    = -DXNOC_HAVE_SDL $(shell pkg-config --cflags sdl2 SDL2_ttf SDL2_image)
SDL_LIBS     = $(shell pkg-config --libs sdl2 SDL2_ttf SDL2_image)

unit: $(UNIT_BINS)
$(BUILD)/tests/coll_unit: tests/unit/coll_unit.c $(COLL_LIB) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/coll_unit.c $(COLL_LIB) -lm
$(BUILD)/tests/sched_unit: tests/unit/sched_unit.c $(wildcard sim_harness/sched/*.c) $(COLL_LIB) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/sched_unit.c $(wildcard sim_harness/sched/*.c) $(COLL_LIB) -lcadical -lstdc++ -ljansson -lm
ISS_SRC     := sim_harness/core/rv32.c sim_harness/core/rv32_csr.c sim_harness/core/rv32_decode.c sim_harness/core/rv32_fp.c \
               sim_harness/core/htif.c sim_harness/core/elf_load.c
$(BUILD)/tests/iss_driver: tests/iss_driver.c $(ISS_SRC) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -fno-sanitize-recover=all -o $@ tests/iss_driver.c $(ISS_SRC) -lelf -ldw -lm
$(BUILD)/tests/dedupe_unit: tests/unit/dedupe_unit.c sim_harness/net/dedupe.c sim_harness/util/cli.c sim_harness/util/suggest.c $(UNIT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/dedupe_unit.c sim_harness/net/dedupe.c sim_harness/util/cli.c sim_harness/util/suggest.c -lm
$(BUILD)/tests/endpoint_unit: tests/unit/endpoint_unit.c sim_harness/net/endpoint.c $(UNIT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/endpoint_unit.c sim_harness/net/endpoint.c
$(BUILD)/tests/ncfunc_unit: tests/unit/ncfunc_unit.c sim_harness/coll/ncfunc.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/ncfunc_unit.c sim_harness/coll/ncfunc.c
$(BUILD)/tests/netgen_ops_unit: tests/unit/netgen_ops_unit.c sim_harness/net/netgen.c $(TOPO_SRC) sim_harness/net/router_cfg.c sim_harness/util/cli.c sim_harness/util/suggest.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/netgen_ops_unit.c sim_harness/net/netgen.c $(TOPO_SRC) sim_harness/net/router_cfg.c sim_harness/util/cli.c sim_harness/util/suggest.c -lm
$(BUILD)/tests/select_unit: tests/unit/select_unit.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ tests/unit/select_unit.c
# (-Wno-format-truncation: util/cli.c's vsnprintf(NULL, 0, ...) trips GCC 12 at -O1 with the sanitizers)
$(BUILD)/tests/clos_unit: tests/unit/clos_unit.c sim_harness/net/clos_ctl.c sim_harness/coll/closmodel.c sim_harness/util/cli.c sim_harness/util/suggest.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -Wno-format-truncation -o $@ tests/unit/clos_unit.c sim_harness/net/clos_ctl.c sim_harness/coll/closmodel.c sim_harness/util/cli.c sim_harness/util/suggest.c -lm
# rtl/xnoc_clos_ctl.sv verilated (v(17,n,16)) against net/clos_ctl.c; C++ only in the model's glue
CLOS_VL := $(BUILD)/tests/clos_vl
VL_INC  := /usr/share/verilator/include
$(BUILD)/tests/clos_rtl: tests/clos_rtl/clos_rtl.c tests/clos_rtl/glue.cpp tests/clos_rtl/glue.h rtl/xnoc_clos_ctl.sv \
                         sim_harness/net/clos_ctl.c sim_harness/util/cli.c sim_harness/util/suggest.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	rm -rf $(CLOS_VL)
	verilator --cc --build -Wall -O3 -GNumMid=17 -GNumOut=16 --prefix Vclos --Mdir $(CLOS_VL) \
	    rtl/xnoc_clos_ctl.sv --top-module xnoc_clos_ctl >/dev/null
	g++ -std=c++17 -O1 -I$(CLOS_VL) -isystem $(VL_INC) -isystem $(VL_INC)/vltstd -c -o $(CLOS_VL)/glue.o tests/clos_rtl/glue.cpp
	g++ -std=c++14 -O1 -isystem $(VL_INC) -isystem $(VL_INC)/vltstd -c -o $(CLOS_VL)/verilated.o $(VL_INC)/verilated.cpp
	g++ -std=c++14 -O1 -isystem $(VL_INC) -isystem $(VL_INC)/vltstd -c -o $(CLOS_VL)/verilated_threads.o $(VL_INC)/verilated_threads.cpp
	$(CC) $(UNIT_CFLAGS) -Wno-format-truncation -c -o $(CLOS_VL)/clos_rtl.o tests/clos_rtl/clos_rtl.c
	$(CC) $(UNIT_CFLAGS) -c -o $(CLOS_VL)/clos_ctl.o sim_harness/net/clos_ctl.c
	$(CC) $(UNIT_CFLAGS) -Wno-format-truncation -c -o $(CLOS_VL)/cli.o sim_harness/util/cli.c
	$(CC) $(UNIT_CFLAGS) -c -o $(CLOS_VL)/suggest.o sim_harness/util/suggest.c
	g++ -fsanitize=address,undefined -o $@ $(CLOS_VL)/clos_rtl.o $(CLOS_VL)/clos_ctl.o $(CLOS_VL)/cli.o $(CLOS_VL)/suggest.o $(CLOS_VL)/glue.o \
	    $(CLOS_VL)/Vclos__ALL.a $(CLOS_VL)/verilated.o $(CLOS_VL)/verilated_threads.o -lpthread -lm
# the model build's word-wide trigger vectors against Verilator's own (C++: Verilator's headers)
$(BUILD)/tests/vl_triggers_unit: tests/unit/vl_triggers_unit.cpp sim_harness/glue/xnoc_vl_triggers.h
	@mkdir -p $(@D)
	g++ -std=c++14 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -isystem /usr/share/verilator/include \
	    -isystem /usr/share/verilator/include/vltstd -o $@ tests/unit/vl_triggers_unit.cpp
# the RTL benches: one router, one coding unit, its streaming combiner (and as a scan's unit), verilated with their checks
# (tests/rtl/, tests/rtl.t.sh)
$(BUILD)/tests/router_tb $(BUILD)/tests/ncu_tb $(BUILD)/tests/ncu_stream_tb $(BUILD)/tests/ncu_scan_tb: $(BUILD)/tests/%: tests/rtl/%.sv tests/rtl/tb_main.cpp tests/rtl/build.sh tests/rtl/ncu_model.svh \
                                                $(wildcard rtl/*.sv)
	@mkdir -p $(@D)
	@echo "  VERILATE $@"
	@tests/rtl/build.sh $* rtl $@
$(BUILD)/tests/abi_flit: tests/unit/abi_flit.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -o $@ tests/unit/abi_flit.c
# the view's test driver: without SDL2 (every view flag refused), with it, and with it under ASan
$(BUILD)/tests/view_test_none: $(VIEW_TEST) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -Isim_harness -o $@ $(VIEW_TEST) sim_harness/view/view_none.c -lm
$(BUILD)/tests/view_test: $(VIEW_TEST) $(wildcard sim_harness/view/*.c) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -Isim_harness $(SDL_FLAGS) -o $@ $(VIEW_TEST) \
	    $(wildcard sim_harness/view/*.c) $(SDL_LIBS) -lm
$(BUILD)/tests/view_test_asan: $(VIEW_TEST) $(wildcard sim_harness/view/*.c) $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -Isim_harness $(SDL_FLAGS) -fsanitize=address,undefined \
	    -fno-omit-frame-pointer -o $@ $(VIEW_TEST) $(wildcard sim_harness/view/*.c) $(SDL_LIBS) -lm

# libFuzzer targets (tests/fuzz/), under ASan + UBSan: `make fuzz` runs each
# for FUZZ_SECONDS (60) from a corpus seeded with the project's own files;
# tests/fuzz.t.sh runs them briefly in `make test`.
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -std=c11 -D_GNU_SOURCE -Isim_harness -Wall -Wextra -Werror
FUZZ_SRC_ni    := sim_harness/system/ni.c sim_harness/system/ni_net.c sim_harness/system/ni_match.c sim_harness/system/ni_dec.c sim_harness/net/endpoint.c sim_harness/net/router_cfg.c sim_harness/system/test_hooks.c sim_harness/core/rv32.c sim_harness/core/rv32_decode.c \
                  sim_harness/core/rv32_csr.c sim_harness/core/rv32_fp.c $(TOPO_SRC) sim_harness/util/cli.c sim_harness/util/suggest.c
FUZZ_SRC_parse := $(TOPO_SRC) sim_harness/util/cli.c sim_harness/util/suggest.c
FUZZ_SRC_elf   := sim_harness/core/elf_load.c
FUZZ_SRC_sched := $(wildcard sim_harness/sched/*.c sim_harness/coll/*.c) $(TOPO_SRC) sim_harness/net/clos_ctl.c sim_harness/util/cli.c sim_harness/util/suggest.c
FUZZ_SRC_events := sim_harness/cmd/replay_events.c $(TOPO_SRC) sim_harness/util/cli.c sim_harness/util/suggest.c
FUZZ_SRC_spec  := sim_harness/cmd/sweep_spec.c sim_harness/util/cli.c sim_harness/util/suggest.c sim_harness/util/usage.c
FUZZ_SRC_router := sim_harness/net/router_cfg.c $(TOPO_SRC) sim_harness/util/cli.c sim_harness/util/suggest.c
FUZZ_SRC_cli    := sim_harness/cmd/cmd_opts.c sim_harness/net/router_cfg.c $(TOPO_SRC) sim_harness/util/cli.c sim_harness/util/suggest.c
FUZZ_SRC_config := sim_harness/cmd/config_file.c sim_harness/cmd/booksim_cfg.c sim_harness/cmd/cmd_opts.c sim_harness/net/router_cfg.c $(TOPO_SRC) sim_harness/util/cli.c sim_harness/util/suggest.c sim_harness/util/usage.c
FUZZ_LIBS_elf   := -lelf -ldw
FUZZ_LIBS_events := -ljansson
FUZZ_LIBS_sched := -ljansson -lcadical -lstdc++
FUZZ_LIBS_spec  := -ljansson
FUZZ_TARGETS := ni parse elf sched events spec router cli config
fuzz-build: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard sim_harness/*.h sim_harness/*/*.h firmware/lib/*.h firmware/coll/*.h) \
                      $(HARNESS_SRC)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@clang $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*) -lm
fuzz: fuzz-build firmware
	tests/fuzz/run.sh $(FUZZ_SECONDS)

deps:
	@missing=$$(for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	else echo "all dependencies present"; fi

test: all asan unit
	tests/run

lint:
	tools/lint.sh

# C formatting (.clang-format, Debian's clang-format): `make format` rewrites
# the C sources in place, `make format-check` names the files that differ.
FORMAT_SRC = $(shell find sim_harness firmware tests/unit tests/fuzz -name '*.[ch]' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SRC)
format-check:
	@bad=0; for f in $(FORMAT_SRC); do clang-format $$f | cmp -s - $$f || { echo "not formatted: $$f"; bad=1; }; done; exit $$bad

synth:
	tools/synth.sh

bench: all
	tools/bench.sh
	tools/bench_system.sh
	tools/nc_sweep.sh
	tools/unit_cost.sh

demo: all
	tools/demo.sh

# saturating traffic for 10^6 measured cycles on every topology, both ends of
# the VC/buffer range, conservation checked (docs/performance.md)
soak: all
	tools/soak.sh

clean:
	rm -rf $(BUILD)
