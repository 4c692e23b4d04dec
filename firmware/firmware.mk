# firmware.mk - bare-metal rv32im images: build/firmware/NAME.elf
# (included by the top-level Makefile; `make firmware`).
comma     := ,
FW_CC     := clang --target=riscv32-unknown-elf -march=rv32im -mabi=ilp32 -mno-relax
FW_CFLAGS := -O2 -g -ffreestanding -fno-builtin -nostdlib -Wall -Wextra -Werror -Ifirmware/lib -Ifirmware/coll
FW_LDFLAGS := -fuse-ld=lld -nostdlib -Wl,-T,firmware/lib/link.ld -Wl,--gc-sections
# libgcc (soft float, 64-bit multiply/divide) of the multilib matching an
# image's -march/-mabi, from Debian's gcc-riscv64-unknown-elf (make deps):
# the exact multilib where it ships one (rv32im, rv32imac, rv32imafdc, ...),
# else the I+M one of the same ABI (rv32im/ilp32, rv32imf/ilp32f,
# rv32imfd/ilp32d), whose routines need no more.  Empty without the
# package: then `double` ends in "undefined symbol: __muldf3".
fw_libgcc_base = $(if $(filter ilp32d,$(1)),rv32imfd,$(if $(filter ilp32f,$(1)),rv32imf,rv32im))
fw_libgcc = $(shell for a in "-march=$(firstword $(subst _, ,$(1))) -mabi=$(2)" "-march=$(call fw_libgcc_base,$(2)) -mabi=$(2)"; do \
              d=$$(riscv64-unknown-elf-gcc $$a -print-multi-directory 2>/dev/null) || break; \
              [ "$$d" = . ] || { riscv64-unknown-elf-gcc $$a -print-libgcc-file-name; break; }; done)
FW_LIBGCC := $(call fw_libgcc,rv32im,ilp32)
FW_LIB    := firmware/lib/crt0.S firmware/lib/runtime.c firmware/lib/noc.c
FW_HDRS   := $(wildcard firmware/lib/*.h firmware/coll/*.h firmware/images/*.h)
FW_IMAGES := $(patsubst firmware/images/%.c,$(BUILD)/firmware/%.elf,$(wildcard firmware/images/*.c))
FW_TESTS  := $(patsubst firmware/tests/%.S,$(BUILD)/firmware/tests/%.elf,$(wildcard firmware/tests/*.S))

firmware: $(FW_IMAGES) $(FW_TESTS)

$(BUILD)/firmware/%.elf: firmware/images/%.c $(FW_LIB) $(FW_HDRS) $(wildcard firmware/coll/*.c) firmware/lib/link.ld
	@mkdir -p $(dir $@)
	@echo "  FW      $@"
	@$(FW_CC) $(FW_CFLAGS) $(FW_LDFLAGS) -o $@ $< $(FW_LIB) $(if $(filter coll%,$*),$(wildcard firmware/coll/*.c)) $(FW_LIBGCC)

# the plan runner with phase E's unit multicasts (firmware/coll/coll.c, COLL_MCAST):
# a build of its own, so that coll.elf's code stays as it is
$(BUILD)/firmware/coll-mc.elf: FW_CFLAGS += -DCOLL_MCAST=1

# hand-written tests (faults, ISA checks): linked at 0x80000000, no runtime
$(BUILD)/firmware/tests/%.elf: firmware/tests/%.S
	@mkdir -p $(dir $@)
	@echo "  FW      $@"
	@$(FW_CC) -nostdlib -fuse-ld=lld $(if $(filter outside%,$*),-Wl$(comma)-Ttext=0x1000,-Wl$(comma)-T$(comma)firmware/lib/link.ld) -o $@ $<

# An image of your own, built like an SDK's (docs/firmware.md):
#   make image SRC="a.c b.c ..." [CFLAGS="-O0 -DN=4"] [NAME=x] [EXTRA=coll]
#              [MARCH=rv32imafdc] [MABI=ilp32d]
#     -> build/user/NAME.elf (NAME: the first source's name; or OUT=path.elf)
# Every source is compiled with the shipped images' flags, the C library
# (firmware/libc: string.h, stdlib.h, stdio.h, assert.h, ctype.h) and then
# the CFLAGS given on the command line (added, never replacing).  User
# images live under build/user/, so no shipped image or test input can be
# replaced.  The collective library (firmware/coll) is linked with EXTRA=coll.
FW_LIBC      := $(wildcard firmware/libc/*.c)
FW_USER_CFLAGS = $(FW_CFLAGS) -Ifirmware/libc/include -DXNOC_LIBC -Werror=format \
                 $(if $(filter command line,$(origin CFLAGS)),$(CFLAGS))
USER_NAME    = $(or $(NAME),$(basename $(notdir $(firstword $(SRC)))))
USER_MARCH   = $(or $(MARCH),rv32im)
USER_MABI    = $(or $(MABI),ilp32)
USER_CC      = $(subst -march=rv32im -mabi=ilp32,-march=$(USER_MARCH) -mabi=$(USER_MABI),$(FW_CC))
USER_OUT     = $(or $(OUT),$(BUILD)/user/$(USER_NAME).elf)
.PHONY: image
image:
	@if [ -z "$(strip $(SRC))" ]; then echo "usage: make image SRC=\"a.c b.c ...\" [CFLAGS=...] [NAME=name] [OUT=file.elf] [EXTRA=coll] [MARCH=rv32imafdc] [MABI=ilp32d]" >&2; exit 2; fi
	@for f in $(SRC); do if [ ! -f "$$f" ]; then echo "make image: $$f: no such file" >&2; exit 2; fi; done
	@case "$(USER_NAME)" in */*|"") echo "make image: NAME=$(USER_NAME): a name, not a path (OUT= takes a path)" >&2; exit 2;; esac
	@mkdir -p $(dir $(USER_OUT))
	@echo "  FW      $(USER_OUT)"
	@$(USER_CC) $(FW_USER_CFLAGS) $(FW_LDFLAGS) -o $(USER_OUT) \
	    $(SRC) $(FW_LIB) $(FW_LIBC) $(if $(filter coll,$(EXTRA)),$(wildcard firmware/coll/*.c)) \
	    $(call fw_libgcc,$(USER_MARCH),$(USER_MABI)) \
	    2>$(USER_OUT).err || { cat $(USER_OUT).err >&2; \
	    sym=$$(grep -Eo 'undefined symbol: __[a-z0-9]*[sdt]f[a-z0-9]*' $(USER_OUT).err | head -1 | cut -d' ' -f3); \
	    [ -z "$$sym" ] || echo "make image: $$sym is the C compiler's software floating point (a float or double operation): no libgcc for $(USER_MARCH)/$(USER_MABI) was found to provide it (Debian's gcc-riscv64-unknown-elf, installed by make deps)" >&2; \
	    rm -f $(USER_OUT).err; exit 1; }
	@cat $(USER_OUT).err >&2; rm -f $(USER_OUT).err
