# firmware.mk - bare-metal rv32im images: build/firmware/NAME.elf
# (included by the top-level Makefile; `make firmware`).
comma     := ,
FW_CC     := clang --target=riscv32-unknown-elf -march=rv32im -mabi=ilp32 -mno-relax
FW_CFLAGS := -O2 -g -ffreestanding -fno-builtin -nostdlib -Wall -Wextra -Werror -Ifirmware/lib -Ifirmware/coll
FW_LDFLAGS := -fuse-ld=lld -nostdlib -Wl,-T,firmware/lib/link.ld -Wl,--gc-sections
FW_LIB    := firmware/lib/crt0.S firmware/lib/runtime.c firmware/lib/noc.c
FW_HDRS   := $(wildcard firmware/lib/*.h firmware/coll/*.h firmware/images/*.h)
FW_IMAGES := $(patsubst firmware/images/%.c,$(BUILD)/firmware/%.elf,$(wildcard firmware/images/*.c))
FW_TESTS  := $(patsubst firmware/tests/%.S,$(BUILD)/firmware/tests/%.elf,$(wildcard firmware/tests/*.S))

firmware: $(FW_IMAGES) $(FW_TESTS)

$(BUILD)/firmware/%.elf: firmware/images/%.c $(FW_LIB) $(FW_HDRS) $(wildcard firmware/coll/*.c) firmware/lib/link.ld
	@mkdir -p $(dir $@)
	@echo "  FW      $@"
	@$(FW_CC) $(FW_CFLAGS) $(FW_LDFLAGS) -o $@ $< $(FW_LIB) $(if $(filter coll%,$*),$(wildcard firmware/coll/*.c))

# hand-written tests (faults, ISA checks): linked at 0x80000000, no runtime
$(BUILD)/firmware/tests/%.elf: firmware/tests/%.S
	@mkdir -p $(dir $@)
	@echo "  FW      $@"
	@$(FW_CC) -nostdlib -fuse-ld=lld $(if $(filter outside%,$*),-Wl$(comma)-Ttext=0x1000,-Wl$(comma)-T$(comma)firmware/lib/link.ld) -o $@ $<

# An image of your own from a C file anywhere (docs/firmware.md):
#   make image SRC=path/to/x.c      -> build/firmware/x.elf (or OUT=path.elf)
# It links the runtime and the NI driver (firmware/lib); the collective
# library (firmware/coll) too when EXTRA=coll.
.PHONY: image
image:
	@if [ -z "$(SRC)" ]; then echo "usage: make image SRC=path/to/file.c [OUT=file.elf] [EXTRA=coll]" >&2; exit 2; fi
	@if [ ! -f "$(SRC)" ]; then echo "make image: $(SRC): no such file" >&2; exit 2; fi
	@mkdir -p $(dir $(or $(OUT),$(BUILD)/firmware/x))
	@echo "  FW      $(or $(OUT),$(BUILD)/firmware/$(basename $(notdir $(SRC))).elf)"
	@$(FW_CC) $(FW_CFLAGS) $(FW_LDFLAGS) -o $(or $(OUT),$(BUILD)/firmware/$(basename $(notdir $(SRC))).elf) \
	    $(SRC) $(FW_LIB) $(if $(filter coll,$(EXTRA)),$(wildcard firmware/coll/*.c))
