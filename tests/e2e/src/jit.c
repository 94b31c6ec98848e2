/* A JIT in C.  jit_compile() writes two functions of machine code into
   an mmap'ed buffer, for the architecture it runs on: jit_outer calls
   jit_inner, and jit_inner calls back into callback(), a function of the
   program.  Both set up a frame record (x86_64: push rbp; mov rbp,rsp;
   arm64: stp x29,x30,[sp,#-16]!; mov x29,sp; riscv64: ra and s0 saved
   below the entry sp, s0 = the entry sp; s390x: r14 and r15 saved in
   the caller's save area, and the back chain; ppc64le: the back chain and
   the LR save slot; arm: r11 and lr pushed, r11 = sp) and have no CFI, as JIT code usually has none.  write_perf_map() names them in /tmp/perf-PID.map
   ('start size name', hex), the way JIT runtimes do, and e2e symbolizes
   the profile with it ('e2e-perfmap').  On arm64 __builtin___clear_cache
   calls libgcc's __clear_cache; linking libgcc_s makes that a call into
   a shared library, not into code linked into the program, so the
   program's own edges are the same on both architectures.

   main -> jit_compile 1, jit_compile -> emit 2 (one per JIT function),
   main -> write_perf_map 1, main -> jit_outer 7, jit_outer -> jit_inner 7,
   jit_inner -> callback 7, callback -> leaf 14 (twice per callback). */
// e2e-perfmap: yes
// e2e-arch: x86_64 arm64 riscv64 s390x ppc64le armhf
// e2e-ldflags: -lgcc_s
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fixture.h"
#ifdef JIT_START_IN_CALLBACK
#include <valgrind/callgrind.h>
#endif

#define N_CALLS 7

typedef int jit_fn(int);

NOIPA int leaf(int x) { return x + 1; }

NOIPA int callback(int x)
{
#ifdef JIT_START_IN_CALLBACK
   /* jitlate.c: instrumentation goes on in the first callback, with
      two JIT frames without CFI between here and main. */
   if (x == 0)
      CALLGRIND_START_INSTRUMENTATION;
#endif
   return leaf(x) + leaf(x * 2);
}

#if defined(__x86_64__)
/* push rbp; mov rbp,rsp; movabs rax,TARGET; call rax; pop rbp; ret.
   The argument stays in edi, the result comes back in eax.  At entry rsp
   is 8 mod 16; after the push it is 16-aligned for the call. */
static const uint8_t code_template[] = {
   0x55,                               /* push rbp */
   0x48, 0x89, 0xe5,                   /* mov rbp, rsp */
   0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, /* movabs rax, TARGET */
   0xff, 0xd0,                         /* call rax */
   0x5d,                               /* pop rbp */
   0xc3,                               /* ret */
};
#define TARGET_OFFSET 6
#elif defined(__aarch64__)
/* stp x29,x30,[sp,#-16]!; mov x29,sp; ldr x16,TARGET; blr x16;
   ldp x29,x30,[sp],#16; ret; TARGET: .quad.  The argument stays in w0,
   the result comes back in w0.  The literal is 8-aligned because every
   function starts at a multiple of FN_ALIGN. */
static const uint32_t code_template[] = {
   0xa9bf7bfd,                         /* stp x29, x30, [sp, #-16]! */
   0x910003fd,                         /* mov x29, sp */
   0x58000090,                         /* ldr x16, .+16 (TARGET) */
   0xd63f0200,                         /* blr x16 */
   0xa8c17bfd,                         /* ldp x29, x30, [sp], #16 */
   0xd65f03c0,                         /* ret */
   0, 0,                               /* TARGET */
};
#define TARGET_OFFSET 24
#elif defined(__riscv) && __riscv_xlen == 64
/* addi sp,sp,-16; sd ra,8(sp); sd s0,0(sp); addi s0,sp,16;
   auipc t0,0; ld t0,TARGET-.(t0); jalr ra,t0; ld ra,8(sp); ld s0,0(sp);
   addi sp,sp,16; ret; nop; TARGET: .quad.  The argument stays in a0, the
   result comes back in a0.  No compressed instructions; the nop makes
   the literal 8-aligned. */
static const uint32_t code_template[] = {
   0xff010113,                         /* addi sp, sp, -16 */
   0x00113423,                         /* sd ra, 8(sp) */
   0x00813023,                         /* sd s0, 0(sp) */
   0x01010413,                         /* addi s0, sp, 16 */
   0x00000297,                         /* auipc t0, 0 */
   0x0202b283,                         /* ld t0, 32(t0) (TARGET) */
   0x000280e7,                         /* jalr ra, 0(t0) */
   0x00813083,                         /* ld ra, 8(sp) */
   0x00013403,                         /* ld s0, 0(sp) */
   0x01010113,                         /* addi sp, sp, 16 */
   0x00008067,                         /* ret */
   0x00000013,                         /* nop */
   0, 0,                               /* TARGET */
};
#define TARGET_OFFSET 48
#elif defined(__s390x__)
/* stmg r14,r15,112(r15); lgr r1,r15; aghi r15,-160; stg r1,0(r15);
   lgrl r1,TARGET; basr r14,r1; lmg r14,r15,272(r15); br r14; nopr x2;
   TARGET: .quad.  The frame is the ABI's 160-byte register save area
   with its back chain, the entry SP at 0 (what -mbackchain code and
   JITs that keep the chain write); the argument stays in r2, the result
   comes back in r2.  The nops make the literal 8-aligned, as LGRL
   wants. */
static const uint8_t code_template[] = {
   0xeb, 0xef, 0xf0, 0x70, 0x00, 0x24, /* stmg r14, r15, 112(r15) */
   0xb9, 0x04, 0x00, 0x1f,             /* lgr r1, r15 */
   0xa7, 0xfb, 0xff, 0x60,             /* aghi r15, -160 */
   0xe3, 0x10, 0xf0, 0x00, 0x00, 0x24, /* stg r1, 0(r15) */
   0xc4, 0x18, 0x00, 0x00, 0x00, 0x0a, /* lgrl r1, .+20 (TARGET) */
   0x0d, 0xe1,                         /* basr r14, r1 */
   0xeb, 0xef, 0xf1, 0x10, 0x00, 0x04, /* lmg r14, r15, 272(r15) */
   0x07, 0xfe,                         /* br r14 */
   0x07, 0x07, 0x07, 0x07,             /* nopr r7 (two) */
   0, 0, 0, 0, 0, 0, 0, 0,             /* TARGET */
};
#define TARGET_OFFSET 40
#elif defined(__powerpc64__) && defined(_CALL_ELF) && _CALL_ELF == 2
/* mflr r0; std r0,16(r1); stdu r1,-32(r1); bcl 20,31,.+4; mflr r11;
   ld r12,TARGET-.(r11); mtctr r12; bctrl; addi r1,r1,32; ld r0,16(r1);
   mtlr r0; blr; TARGET: .quad.  ELFv2: the frame is the back chain and
   the LR save slot; the callee is entered at its global entry with its
   address in r12; the argument stays in r3, the result comes back in
   r3.  'bcl 20,31,.+4' reads the PC (VEX knows it for no call). */
static const uint32_t code_template[] = {
   0x7c0802a6,                         /* mflr r0 */
   0xf8010010,                         /* std r0, 16(r1) */
   0xf821ffe1,                         /* stdu r1, -32(r1) */
   0x429f0005,                         /* bcl 20, 31, .+4 */
   0x7d6802a6,                         /* mflr r11 */
   0xe98b0020,                         /* ld r12, 32(r11) (TARGET) */
   0x7d8903a6,                         /* mtctr r12 */
   0x4e800421,                         /* bctrl */
   0x38210020,                         /* addi r1, r1, 32 */
   0xe8010010,                         /* ld r0, 16(r1) */
   0x7c0803a6,                         /* mtlr r0 */
   0x4e800020,                         /* blr */
   0, 0,                               /* TARGET */
};
#define TARGET_OFFSET 48
#elif defined(__arm__)
/* ARM state (A32): push {r11,lr}; mov r11,sp; ldr r12,TARGET; blx r12;
   pop {r11,pc}; TARGET: .word (in an 8-byte slot).  The argument stays
   in r0, the result comes back in r0; blx and the pop to pc switch to
   Thumb and back as the addresses say (callback is Thumb code on
   armhf).  'ldr r12,[pc,#4]' reads .+8+4. */
static const uint32_t code_template[] = {
   0xe92d4800,                         /* push {r11, lr} */
   0xe1a0b00d,                         /* mov r11, sp */
   0xe59fc004,                         /* ldr r12, [pc, #4] (TARGET) */
   0xe12fff3c,                         /* blx r12 */
   0xe8bd8800,                         /* pop {r11, pc} */
   0, 0,                               /* TARGET */
};
#define TARGET_OFFSET 20
#else
#error "jit.c knows x86_64, arm64, riscv64, s390x, ppc64le and arm machine code only"
#endif

#define FN_ALIGN 64

struct jit {
   uint8_t *code;
   size_t size;
   jit_fn *outer, *inner;
};

/* Copies the template to CODE + AT with its call target set to TARGET,
   and returns the function. */
NOIPA jit_fn *emit(uint8_t *code, size_t at, void *target)
{
   uint64_t t = (uint64_t)(uintptr_t)target;
   memcpy(code + at, code_template, sizeof code_template);
   memcpy(code + at + TARGET_OFFSET, &t, sizeof t);
   return (jit_fn *)(void *)(code + at);
}

NOIPA int jit_compile(struct jit *j)
{
   j->size = (size_t)sysconf(_SC_PAGESIZE);
   j->code = mmap(NULL, j->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (j->code == MAP_FAILED)
      return -1;
   j->inner = emit(j->code, FN_ALIGN, (void *)callback);
   j->outer = emit(j->code, 0, (void *)j->inner);
   if (mprotect(j->code, j->size, PROT_READ | PROT_EXEC) != 0)
      return -1;
   /* arm64's and riscv64's instruction caches do not see the data
      writes by themselves. */
   __builtin___clear_cache((char *)j->code, (char *)j->code + j->size);
   return 0;
}

NOIPA int write_perf_map(const struct jit *j)
{
   char path[64];
   FILE *f;
   snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
   f = fopen(path, "w");
   if (!f)
      return -1;
   fprintf(f, "%lx %zx jit_outer\n", (unsigned long)(uintptr_t)j->outer, sizeof code_template);
   fprintf(f, "%lx %zx jit_inner\n", (unsigned long)(uintptr_t)j->inner, sizeof code_template);
   return fclose(f);
}

int main(void)
{
   struct jit j;
   int sum = 0;
   if (jit_compile(&j) != 0 || write_perf_map(&j) != 0) {
      perror("jit");
      return 1;
   }
   for (int i = 0; i < N_CALLS; i++)
      sum += j.outer(i);
   printf("%d\n", sum);
   return 0;
}
