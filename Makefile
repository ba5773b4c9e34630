# SPDX-License-Identifier: GPL-2.0
# exynos-gki: topic branches of the modular Samsung Exynos series on
# Debian's linux-source-6.1, and the tooling that builds, gates and boots
# them. 'make' runs the main job, 'make test' the tests; see README.md.

WORK ?= /var/cache/exynos-gki
BASE ?= 6.1
BRANCH ?= integration
CONFIG ?= modular
export WORK BASE

T := tools

.PHONY: all help deps tree topics integration build boot export request-pull send \
	resolve check test test-full bench bloat equiv exynos4210 fresh-check range-diff

all: deps
	@$(T)/pipeline.sh

# The steps of the main job, the other targets and every environment knob.
help:
	@$(T)/pipeline.sh --help

deps:
	@$(T)/deps.sh

tree: deps
	@$(T)/tree.sh

topics: tree
	@$(T)/topics.sh $(TOPIC)

integration: topics
	@$(T)/integration.sh

build: integration
	@$(T)/build.sh $(BRANCH) $(CONFIG)

# The boot check: the plain boot, then the equivalence suite against the
# built-in base on the synthetic SoCs and the grafted boards.
boot: integration
	@$(T)/boot.sh $(BRANCH) $(CONFIG)
	@EQ_B="$(BRANCH) $(CONFIG)" $(T)/equiv.sh $(SOC)

# Only the equivalence suite; SOC= picks the SoCs (boot/soc/<soc>.dtsi).
equiv: integration
	@EQ_B="$(BRANCH) $(CONFIG)" $(T)/equiv.sh $(SOC)

# QEMU's own Exynos4210 machines (smdkc210, nuri): ARM32 exynos_defconfig
# at the base against integration; BOARD= picks the boards.
exynos4210: integration
	@E4_B="$(BRANCH)" $(T)/exynos4210.sh $(BOARD)

export:
	@test -n "$(TOPIC)" || { echo "usage: make export TOPIC=<name>" >&2; exit 2; }
	@$(T)/export.sh $(TOPIC)

# What the port to BASE changed in each topic, against 6.1.
range-diff: topics
	@$(T)/range-diff.sh $(TOPIC)

request-pull:
	@test -n "$(TOPIC)" || { echo "usage: make request-pull TOPIC=<name>" >&2; exit 2; }
	@$(T)/request-pull.sh $(TOPIC)

send:
	@test -n "$(TOPIC)" || { echo "usage: make send TOPIC=<name> [VERSION=n] [SERIES_AUTHOR='Name <address>']" >&2; exit 2; }
	@$(T)/send.sh $(TOPIC)

resolve:
	@test -n "$(TOPIC)" || { echo "usage: make resolve TOPIC=<name>" >&2; exit 2; }
	@$(T)/integration.sh --resolve $(TOPIC)

check: integration
	@$(T)/check.sh $(TOPIC)

# Does 'make deps' bring all the pipeline runs? A fresh Debian system in
# a chroot answers it; FRESH_BUILD= names the booted build it reuses.
fresh-check: deps
	@$(T)/fresh-check.sh

test: deps
	@tests/run

# The tests above and those that do not fit CI's limit (tests/full/).
test-full: deps
	@TEST_FULL=1 tests/run

bench: deps
	@$(T)/bench.sh

# What the series costs a kernel with the drivers built in.
bloat: integration
	@$(T)/bloat.sh $(BRANCH)
