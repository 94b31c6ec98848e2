/* chain.c built with -msave-restore (riscv64 only): each function saves
   its registers by 'jal t0, __riscv_save_N' (a call, rd = t0) and
   __riscv_save_N comes back by 'jr t0' (a jump, not a return), then ends
   by a tail jump to __riscv_restore_N.  The program's call graph is
   chain's: the millicode routines are libgcc's, not the fixture's (run.sh
   leaves them out like crt code). */
// e2e-arch: riscv64
// e2e-cflags: -msave-restore
#include "chain.c"
