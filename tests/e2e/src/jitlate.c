/* jit.c with instrumentation switched on late: Callgrind runs with
   --instr-atstart=no, and the first callback (x == 0) starts it, with
   jit_inner and jit_outer, JIT frames with frame records and no CFI,
   between it and main.  Seeding the shadow stack then has to unwind
   through them (x86_64: the %rbp chain; arm64: the X29/X30 records).
   With --separate-callers=1 every function is named with its caller
   (callback'jit_inner), so a frame the unwinder could not see shows as a
   context without its caller.  A call in progress at the switch was
   made before the window and is not counted (patch 0013), so the graph
   is that of jit.c with contexts and one call fewer on the seeded
   chain: main'(below main) -> jit_outer'main 6,
   jit_outer'main -> jit_inner'jit_outer 6,
   jit_inner'jit_outer -> callback'jit_inner 6,
   callback'jit_inner -> leaf'callback 14 (twice a callback, the first
   callback's calls of leaf come after the switch); what ran before
   (jit_compile, write_perf_map) is not counted. */
// e2e-perfmap: yes
// e2e-arch: x86_64 arm64 riscv64 s390x ppc64le armhf
// e2e-ldflags: -lgcc_s
// e2e-vgopts: --instr-atstart=no --separate-callers=1
#define JIT_START_IN_CALLBACK 1
#include "jit.c"
