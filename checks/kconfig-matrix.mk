# SPDX-License-Identifier: GPL-2.0
# For the kconfig-matrix gate: what kbuild builds in one directory for a
# given .config, decided by kbuild's own scripts/Makefile.lib.
#   make -s -f checks/kconfig-matrix.mk srctree=TREE CONFIG=FILE obj=DIR
# prints one line per object or subdirectory:
#   builtin OBJ | module MOD.ko OBJ | dir-y SUBDIR | dir-m SUBDIR
# (.config lines are make assignments; '# ... is not set' are comments)
include $(CONFIG)
src := $(obj)
include $(srctree)/scripts/Kbuild.include
include $(srctree)/$(obj)/Makefile
# Before Makefile.lib rewrites them into built-in.a and modules.order:
sub-y := $(filter %/,$(obj-y))
sub-m := $(filter-out $(sub-y),$(filter %/,$(obj-m)))
include $(srctree)/scripts/Makefile.lib
parts = $(addprefix $(obj)/,$(call suffix-search,$(patsubst $(obj)/%,%,$1),.o,-objs -y -m))
all:
	@:$(foreach o,$(filter-out %/built-in.a,$(real-obj-y)),$(info builtin $o))
	@:$(foreach m,$(filter %.o,$(obj-m)),$(foreach o,$(or $(call parts,$m),$m),$(info module $(m:.o=.ko) $o)))
	@:$(foreach d,$(sub-y),$(info dir-y $(obj)/$(d:/=)))
	@:$(foreach d,$(sub-m),$(info dir-m $(obj)/$(d:/=)))
