# The driver: fetch, prepare, build, check, install, deb, bench.
# See README.md for what each target is for; 'make help' lists them.

TOP     := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD   := $(TOP)/build
JOBS    ?= $(shell nproc)
PREFIX  ?= $(BUILD)/install
SERIES  ?= $(TOP)/patches/series

# The patched x86_64 build.
SRC     := $(BUILD)/src
TREE    := $(BUILD)/x86_64/tree
# Pristine upstream (empty series), for baselines and benchmarks.
UP_SRC    := $(BUILD)/upstream/src
UP_TREE   := $(BUILD)/upstream/tree
UP_PREFIX := $(BUILD)/upstream/install
UPSTREAM_TESTDIRS = $(CHECK_TESTDIRS)

# UPSTREAM=1 points the checks that support it at the pristine build.
ifeq ($(UPSTREAM),1)
  VG_PREFIX := $(UP_PREFIX)
  VG_TREE   := $(UP_TREE)
else
  VG_PREFIX := $(PREFIX)
  VG_TREE   := $(TREE)
endif

# Test programs built for 'make check' (vg_regtest needs tests/ itself).
CHECK_DIRS      := callgrind cachegrind none
# none/ and cachegrind/ tests run programs of memcheck/tests and perf/.
CHECK_TESTDIRS  := tests memcheck/tests perf $(addsuffix /tests,$(CHECK_DIRS))
FULL_TESTDIRS   := tests perf gdbserver_tests $(addsuffix /tests,callgrind cachegrind none \
                   memcheck drd helgrind massif dhat lackey exp-bbv)
REGTEST_TIMEOUT ?= 300

# The cross architectures of scripts/cross-arches (arm64, riscv64, s390x...): each
# cross-built from the same prepared source into build/<arch>/tree and
# build/<arch>/install, and tested under qemu-user (scripts/cross-setup.sh;
# see docs/arm64.md for why not the arm64 VM).  cachegrind's tests run
# programs of memcheck's.
CROSS_ARCHES     := $(shell awk '!/^[[:space:]]*(\#|$$)/ { print $$1 }' $(TOP)/scripts/cross-arches)
cross_host        = $(shell awk -v a=$(1) '$$1 == a { print $$2 }' $(TOP)/scripts/cross-arches)
CROSS_CHECK_DIRS := callgrind cachegrind
# Only what the cross stages run is built (about a minute less an
# architecture): the tools (none for riscv64's none/tests/riscv64), and of
# memcheck/tests the three programs the callgrind and cachegrind tests run.
CROSS_TOOLS      := cachegrind callgrind none
CROSS_TESTDIRS   := tests memcheck/tests:bug445235_ada_demangle,replaces_malloc_client_req,wrap5 \
                    $(addsuffix /tests,$(CROSS_CHECK_DIRS))
CROSS_TIMEOUT    ?= 600
# An architecture's own instruction tests, built and run with the above
# (riscv64: the sc with rd == rs2 of patch 0031 is tested there)
CROSS_EXTRA_riscv64 := none/tests/riscv64
ARM_TREE         := $(BUILD)/arm64/tree

UTILS_SRC   := $(TOP)/callgrind-utils
UTILS_BUILD := $(BUILD)/utils
UTILS_BIN   := $(UTILS_BUILD)/callgrind-utils

export TOP BUILD

.PHONY: all help deps fetch prepare build utils demo install check check-full \
        check-all check-driver check-utils check-regtest check-regtest-full \
        check-e2e testprogs testprogs-full pq export cycle-tables check-series upstream upstream-arm64 clean distclean \
        $(addprefix check-,$(CROSS_ARCHES)) spec-snippet \
        deb deb-utils check-package snapshots-update

all: build utils

help:
	@sed -n 's/^## //p' $(TOP)/Makefile

## make deps        install the Debian packages a fresh machine lacks (root)
deps:
	@$(TOP)/scripts/deps.sh base

fetch:
	@$(TOP)/scripts/fetch-upstream.sh >/dev/null

prepare: fetch
	@SRC=$(SRC) SERIES=$(SERIES) $(TOP)/scripts/prepare.sh

build: prepare
	@SRC=$(SRC) TREE=$(TREE) PREFIX=$(PREFIX) JOBS=$(JOBS) SERIES=$(SERIES) \
	   $(TOP)/scripts/build.sh

# Pristine upstream, built the same way, in its own folders.
upstream: fetch
	@SRC=$(UP_SRC) SERIES= $(TOP)/scripts/prepare.sh
	@SRC=$(UP_SRC) TREE=$(UP_TREE) PREFIX=$(UP_PREFIX) JOBS=$(JOBS) SERIES= \
	   $(TOP)/scripts/build.sh $(UPSTREAM_TESTDIRS)

# Pristine upstream cross-built for arm64, from the same pristine source.
UP_ARM_TREE   := $(BUILD)/upstream/arm64/tree
UP_ARM_PREFIX := $(BUILD)/upstream/arm64/install
upstream-arm64: fetch deps-arm64
	@SRC=$(UP_SRC) SERIES= $(TOP)/scripts/prepare.sh
	@SRC=$(UP_SRC) TREE=$(UP_ARM_TREE) PREFIX=$(UP_ARM_PREFIX) HOST=$(call cross_host,arm64) \
	   JOBS=$(JOBS) SERIES= $(TOP)/scripts/build.sh $(CROSS_TESTDIRS)

utils:
	@$(TOP)/scripts/build-utils.sh $(UTILS_SRC) $(UTILS_BUILD)

install: build

## make demo        build everything, profile tests/sample, print the top
##                  functions and write build/demo/flamegraph.svg
demo: deps build utils
	@VALGRIND=$(PREFIX)/bin/valgrind UTILS=$(UTILS_BIN) $(TOP)/scripts/demo.sh

# A test stage's prerequisites, or none with NOBUILD=1: scripts/lanes.sh
# runs stages side by side once everything they use is built.
needs = $(if $(filter 1,$(NOBUILD)),,$(1))
LANES := $(TOP)/scripts/lanes.sh

# The regtest (one Valgrind at a time) in one lane, the other stages in
# the other: about 7 minutes less for check-full on 2 cores.  The
# driver's tests run regtest.sh on the x86_64 tree, so they come first.
check: deps build utils testprogs check-driver
	@$(LANES) regtest '$(MAKE) -s NOBUILD=1 check-regtest' \
	   utils+e2e '$(MAKE) -s NOBUILD=1 check-utils check-e2e check-bench-smoke'
	@echo "check: all stages passed"

check-full: deps build utils testprogs-full check-driver
	@$(LANES) regtest '$(MAKE) -s NOBUILD=1 check-regtest-full' \
	   utils+e2e '$(MAKE) -s NOBUILD=1 check-utils check-e2e check-bench-smoke'
	@echo "check-full: all stages passed"

## make check-all   every test: check-full on x86_64, then check-<arch> for
##                  each cross architecture (arm64, riscv64, s390x,
##                  ppc64le, armhf, mips64el) but those of CROSS_NOT_IN_CHECK_ALL
# Empty: every architecture of scripts/cross-arches is in CI (ppc64le
# adds about 9 to 14 min to a fresh run, docs/ppc64le.md; armhf about 11,
# docs/armhf.md; mips64el about 10, docs/mips64el.md).
CROSS_NOT_IN_CHECK_ALL ?=
check-all: check-full $(addprefix check-,$(filter-out $(CROSS_NOT_IN_CHECK_ALL),$(CROSS_ARCHES)))
	@echo "check-all: all stages passed"

check-driver: testprogs
	@$(TOP)/tests/driver/run.sh

# callgrind-utils' own suite; its annotate comparison uses the patched
# build, and its browser test runs when chromium and playwright-core are
# installed (CGU_BROWSER_REQUIRED=1 makes their absence a failure).  Then
# the same suite built with ASan+UBSan, and the parser's libFuzzer target
# for UTILS_FUZZ_SECONDS (its corpus plus what it finds in that time).
UTILS_FUZZ_SECONDS ?= 30
UTILS_TEST_ENV := VALGRIND=$(PREFIX)/bin/valgrind CALLGRIND_ANNOTATE=$(PREFIX)/bin/callgrind_annotate
check-utils: $(call needs,utils build)
	@$(UTILS_TEST_ENV) CGU=$(UTILS_BIN) $(MAKE) -s -C $(UTILS_BUILD) check || \
	   { cat $(UTILS_BUILD)/test-suite.log; exit 1; }
	@echo "check-utils: the suite again under ASan+UBSan"
	@$(UTILS_TEST_ENV) $(MAKE) -s -C $(UTILS_BUILD) check-asan > $(UTILS_BUILD)/check-asan.log 2>&1 || \
	   { tail -n 80 $(UTILS_BUILD)/check-asan.log; \
	     cat $(UTILS_BUILD)/_asan/test-suite.log 2>/dev/null; exit 1; }
	@grep -E '^# (TOTAL|PASS|FAIL|ERROR)' $(UTILS_BUILD)/check-asan.log
	@echo "check-utils: fuzzing the parser for $(UTILS_FUZZ_SECONDS) s"
	@$(MAKE) -s -C $(UTILS_BUILD) fuzz FUZZ_SECONDS=$(UTILS_FUZZ_SECONDS) \
	   > $(UTILS_BUILD)/fuzz.log 2>&1 || { tail -n 40 $(UTILS_BUILD)/fuzz.log; exit 1; }
	@grep -E '^Done [0-9]+ runs' $(UTILS_BUILD)/fuzz.log

# The test programs of the regtest directories (the driver's regtest
# tests use the tree's tests/ programs too).
testprogs: build
	@SRC=$(SRC) TREE=$(TREE) PREFIX=$(PREFIX) JOBS=$(JOBS) SERIES=$(SERIES) \
	   $(TOP)/scripts/build.sh $(CHECK_TESTDIRS)

testprogs-full: build
	@SRC=$(SRC) TREE=$(TREE) PREFIX=$(PREFIX) JOBS=$(JOBS) SERIES=$(SERIES) \
	   $(TOP)/scripts/build.sh $(FULL_TESTDIRS)

check-regtest: $(call needs,testprogs)
	@TREE=$(TREE) KNOWN=$(TOP)/tests/known-failures/x86_64.txt TIMEOUT=$(REGTEST_TIMEOUT) \
	   $(TOP)/scripts/regtest.sh $(if $(T),$(T),$(CHECK_DIRS))

check-regtest-full: $(call needs,testprogs-full)
	@TREE=$(TREE) KNOWN=$(TOP)/tests/known-failures/x86_64.txt TIMEOUT=$(REGTEST_TIMEOUT) \
	   $(TOP)/scripts/regtest.sh $(if $(T),$(T),$(patsubst %/tests,%,$(filter-out tests,$(FULL_TESTDIRS))))

check-e2e: $(call needs,build utils)
	@UPSTREAM=$(UPSTREAM) VALGRIND=$(VG_PREFIX)/bin/valgrind UTILS=$(UTILS_BIN) $(TOP)/tests/e2e/run.sh

## make check-fidelity UPSTREAM=1  the e2e suite with pristine upstream and
##                  with the series, x86_64 and every cross architecture, into
##                  the before/after table docs/fidelity.md (never fails on a
##                  wrong fixture; uses the existing builds: make build <arch>
##                  upstream upstream-<arch> for each)
.PHONY: check-fidelity
check-fidelity: utils
	@$(TOP)/scripts/fidelity.sh $(if $(filter 1,$(UPSTREAM)),--upstream --output $(TOP)/docs/fidelity.md)

## make snapshots-update  rewrite tests/e2e/snapshots from an x86_64 run
##                  (review the diff before committing it)
snapshots-update: build utils
	@SNAPSHOTS=update VALGRIND=$(VG_PREFIX)/bin/valgrind UTILS=$(UTILS_BIN) $(TOP)/tests/e2e/run.sh

## make arm64, make riscv64, make s390x, make ppc64le, make armhf, make mips64el
##                  cross-build the patched tree into build/<arch>
## make check-<arch>-regtest  upstream callgrind+cachegrind regtests and our
##                  tests under qemu-user (T=dir/or/test runs only that)
## make check-<arch>-e2e  the e2e suite under qemu-user
# One set of targets a cross architecture: deps-<arch>, <arch>,
# check-<arch>-regtest and check-<arch>-e2e, with the known failures of
# tests/known-failures/<arch>.txt.
define cross_targets
.PHONY: $(1) deps-$(1) check-$(1)-regtest check-$(1)-e2e
deps-$(1):
	@$$(TOP)/scripts/deps.sh $(1)

$(1): deps deps-$(1) prepare
	@SRC=$$(SRC) TREE=$$(BUILD)/$(1)/tree PREFIX=$$(BUILD)/$(1)/install HOST=$$(call cross_host,$(1)) \
	   JOBS=$$(JOBS) SERIES=$$(SERIES) TOOLS="$$(CROSS_TOOLS)" \
	   $$(TOP)/scripts/build.sh $$(CROSS_TESTDIRS) $$(CROSS_EXTRA_$(1))

check-$(1)-regtest: $$(call needs,$(1))
	@$$(TOP)/scripts/cross-setup.sh $(1)
	@eval "$$$$($$(TOP)/scripts/cross-setup.sh $(1) --env)" && \
	 TREE=$$(BUILD)/$(1)/tree KNOWN=$$(TOP)/tests/known-failures/$(1).txt TIMEOUT=$$(CROSS_TIMEOUT) \
	   $$(TOP)/scripts/regtest.sh $$(if $$(T),$$(T),$$(CROSS_CHECK_DIRS) $$(CROSS_EXTRA_$(1)))

check-$(1)-e2e: $$(call needs,$(1) utils)
	@$$(TOP)/scripts/cross-setup.sh $(1)
	@eval "$$$$($$(TOP)/scripts/cross-setup.sh $(1) --env)" && \
	 ARCH=$(1) VALGRIND=$$(BUILD)/$(1)/install/bin/valgrind UTILS=$$(UTILS_BIN) \
	   KNOWN=$$(TOP)/tests/known-failures/$(1).txt $$(TOP)/tests/e2e/run.sh
endef
$(foreach a,$(CROSS_ARCHES),$(eval $(call cross_targets,$(a))))

## make check-riscv64, check-s390x, check-ppc64le  check-<arch>-regtest and
##                  check-<arch>-e2e, then the harness test (a failing vgtest
##                  fails the run); with T=, only that test
# Every cross architecture but arm64, which has its VM stages too.
define cross_check
ifneq ($$(T),)
check-$(1): check-$(1)-regtest
else
check-$(1): $(1) utils
	@$$(TOP)/scripts/cross-setup.sh $(1)
	@$$(LANES) $(1)-regtest '$$(MAKE) -s NOBUILD=1 check-$(1)-regtest' \
	   $(1)-e2e '$$(MAKE) -s NOBUILD=1 check-$(1)-e2e'
	@$$(TOP)/tests/driver/run.sh $(1)_failing_vgtest_fails_the_run
	@echo "check-$(1): all stages passed"
endif
endef
$(foreach a,$(filter-out arm64,$(CROSS_ARCHES)),$(eval $(call cross_check,$(a))))

## make upstream-riscv64, upstream-s390x, upstream-ppc64le, upstream-armhf
##                  pristine upstream cross-built into build/upstream/<arch>
##                  (the tools the e2e suite runs), for make check-fidelity;
##                  armhf with the configure.ac part of patch 0046 alone
##                  (its NEWS hunk needs the earlier patches), without which
##                  upstream does not configure for arm-linux-gnueabihf
UP_SERIES_armhf := $(BUILD)/upstream/armhf.series
$(UP_SERIES_armhf): $(TOP)/patches/series $(TOP)/Makefile
	@mkdir -p $(@D)
	@awk '/^diff --git / { keep = ($$3 == "a/configure.ac") } keep' \
	   $(TOP)/patches/0046-*.patch > $(@D)/armhf-0046-configure.patch
	@echo armhf-0046-configure.patch > $@
up_src = $(if $(UP_SERIES_$(1)),$(BUILD)/upstream/src-$(1),$(UP_SRC))
define cross_upstream
.PHONY: upstream-$(1)
upstream-$(1): fetch deps-$(1) $$(UP_SERIES_$(1))
	@SRC=$$(call up_src,$(1)) SERIES=$$(UP_SERIES_$(1)) $$(TOP)/scripts/prepare.sh
	@SRC=$$(call up_src,$(1)) TREE=$$(BUILD)/upstream/$(1)/tree \
	   PREFIX=$$(BUILD)/upstream/$(1)/install HOST=$$(call cross_host,$(1)) \
	   JOBS=$$(JOBS) SERIES=$$(UP_SERIES_$(1)) TOOLS="$$(CROSS_TOOLS)" $$(TOP)/scripts/build.sh
endef
$(foreach a,$(filter-out arm64,$(CROSS_ARCHES)),$(eval $(call cross_upstream,$(a))))

## make check-arm64  upstream callgrind+cachegrind regtests and our arm64
##                  tests, on arm64 under qemu-user, and in the arm64 VM the
##                  tests qemu-user cannot run; T=dir/or/test runs only that
##                  (in the VM if it is one of those)
ifneq ($(T),)
check-arm64:
	@$(MAKE) -s $(if $(filter $(T:.vgtest=),$(ARM_VM_ONLY)),check-arm64-vm,check-arm64-regtest) T=$(T)
else
check-arm64: arm64 utils arm64-vm
	@$(LANES) arm64-regtest '$(MAKE) -s NOBUILD=1 check-arm64-regtest' \
	   arm64-e2e '$(MAKE) -s NOBUILD=1 check-arm64-e2e'
	@$(MAKE) -s NOBUILD=1 check-arm64-vm-only
	@$(TOP)/tests/driver/run.sh arm64_failing_vgtest_fails_the_run \
	   arm64_vm_failing_vgtest_fails_the_run arm64_vm_hung_vm_is_a_failure
	@echo "check-arm64: all stages passed"
endif

## make arm64-vm    the arm64 reference VM (Debian's arm64 kernel, an initramfs
##                  from Debian's arm64 packages), cached in build/arm64/vm
## make check-arm64-vm  the arm64 regtest inside that VM, a real arm64 kernel
##                  (T=dir/or/test; VM_TREE=build/upstream/arm64/tree for upstream)
.PHONY: arm64-vm check-arm64-vm
arm64-vm: deps-arm64
	@$(TOP)/scripts/deps.sh arm64-vm
	@$(TOP)/scripts/cross-setup.sh arm64
	@$(TOP)/scripts/arm64-vm.sh prepare

# The tests whose qemu-user result differs from the VM's (docs/arm64.md):
# they run in the VM, and tests/known-failures/arm64.txt lists them for
# qemu-user.
ARM_VM_ONLY := callgrind/tests/seed-control callgrind/tests/execinherit callgrind/tests/execinherit-empty
.PHONY: check-arm64-vm-only
VM_RUN := TIMEOUT=$(CROSS_TIMEOUT) $(TOP)/scripts/arm64-vm.sh run
check-arm64-vm-only: $(call needs,arm64 arm64-vm)
	@VM_TIMEOUT=900 $(VM_RUN) $(ARM_VM_ONLY)

check-arm64-vm: arm64 arm64-vm
	@$(VM_RUN) --tree $(if $(VM_TREE),$(VM_TREE),$(ARM_TREE)) $(if $(T),$(T),$(CROSS_CHECK_DIRS))

## make bench      patched against pristine upstream Callgrind (bench/callgrind-bench;
##                  arm64 too when both arm64 builds exist), the cost of
##                  --collect-stacks=yes (bench/stacks-bench) and callgrind-utils'
##                  throughput, into build/bench; QUICK=1 is the short mode
.PHONY: bench check-bench-smoke
bench: deps build upstream utils
	@$(TOP)/scripts/deps.sh bench
	@$(TOP)/bench/callgrind-bench $(if $(filter 1,$(QUICK)),--quick)
	@$(TOP)/bench/stacks-bench $(if $(filter 1,$(QUICK)),--quick)
	@$(TOP)/bench/utils-throughput --cgu $(UTILS_BIN) $(if $(filter 1,$(QUICK)),--quick)

## make inner       the series configured with --enable-inner into build/inner,
##                  to run inside an outer Valgrind (bench/stacks-icount)
## make bench-icount  the cost of --collect-stacks=yes in instructions the
##                  inner Valgrind executes, counted by an outer one
.PHONY: inner bench-icount
inner: prepare
	@SRC=$(SRC) TREE=$(BUILD)/inner/tree PREFIX=$(BUILD)/inner/install JOBS=$(JOBS) \
	   SERIES=$(SERIES) CONFIGURE_EXTRA=--enable-inner $(TOP)/scripts/build.sh

bench-icount: build inner
	@$(TOP)/scripts/deps.sh bench
	@$(TOP)/bench/stacks-icount $(if $(filter 1,$(QUICK)),--quick)

# Tiny QUICK runs of bench/callgrind-bench and bench/stacks-bench: the
# reports are well formed, and the .stacks totals equal the profiles'.
check-bench-smoke: $(call needs,build)
	@$(TOP)/tests/bench-smoke/run.sh
	@$(TOP)/bench/stacks-bench-smoke

## make pq          turn build/src into a git repository, one commit a patch
pq: fetch
	@SRC=$(SRC) $(TOP)/scripts/pq.sh create

## make cycle-tables  regenerate callgrind/cycles_table.c in build/src (a
##                  patch-queue tree) from llvm-mca: commit it there, then
##                  make export (docs/cycle-estimation.md)
cycle-tables:
	@$(TOP)/scripts/deps.sh cycle-tables
	@$(TOP)/scripts/gen-cycle-tables -o $(SRC)/callgrind/cycles_table.c

## make export      write the commits of build/src back to patches/
export:
	@SRC=$(SRC) $(TOP)/scripts/pq.sh export

## make check-series  apply the series one patch at a time, building after each
##                  (FROM=N: the prefixes from patch N on)
check-series: fetch
	@JOBS=$(JOBS) FROM=$(FROM) $(TOP)/scripts/check-series.sh

## make spec-snippet  the series as RPM PatchN: lines, in series order
spec-snippet:
	@. $(TOP)/scripts/lib.sh && n=1000 && series_patches $(SERIES) | while read -r p; do \
	   echo "Patch$$n: $${p##*/}"; n=$$((n + 1)); done

## make deb         Debian's valgrind source package with the series appended
##                  to debian/patches, built 64-bit only into build/deb (root
##                  the first time, for the build dependencies)
deb: fetch
	@JOBS=$(JOBS) SERIES=$(SERIES) $(TOP)/scripts/deb.sh valgrind

## make deb-utils   callgrind-utils as Debian packages, into build/deb-utils
deb-utils:
	@JOBS=$(JOBS) $(TOP)/scripts/deb.sh utils

## make check-package  unpack build/deb's valgrind .deb and check it is the
##                  patched one (run make deb first)
check-package:
	@$(TOP)/tests/package/run.sh

clean:
	rm -rf $(BUILD)/x86_64 $(addprefix $(BUILD)/,$(CROSS_ARCHES)) $(BUILD)/upstream $(BUILD)/utils $(BUILD)/demo \
	   $(BUILD)/deb $(BUILD)/deb-utils

distclean:
	rm -rf $(BUILD)
