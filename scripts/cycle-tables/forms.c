/* List the instruction forms of ELF files' code, as callgrind's
 * --cycle-estimation keys them (callgrind/cycles_form.h of the patch
 * set), for scripts/gen-cycle-tables.
 *
 *   forms x86_64|aarch64 FILE...
 *
 * Prints one line per distinct form, tab-separated: the form, how many
 * instructions of the files have it, and the text of one of them
 * (Capstone's syntax, which is LLVM's) to ask llvm-mca about.  Of the
 * instructions of a form it keeps the first whose text llvm-mca is most
 * likely to take: no PC-relative target, no same-register idiom unless
 * the form is one. */

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>
#include "cycles_form.h"

/* The C library functions the Valgrind build of Capstone calls by other
 * names (scripts/build-capstone.sh), here simply the C library's. */
int vgcapstone_printf(const char* fmt, ...)
{
   va_list ap; int n;
   va_start(ap, fmt); n = vfprintf(stderr, fmt, ap); va_end(ap);
   return n;
}
int vgcapstone_fprintf(void* f, const char* fmt, ...)
{
   va_list ap; int n;
   (void)f;
   va_start(ap, fmt); n = vfprintf(stderr, fmt, ap); va_end(ap);
   return n;
}
void* vgcapstone_stderr;
char* vgcapstone_strcat(char* d, const char* s) { return strcat(d, s); }
int vgcapstone_strcmp(const char* a, const char* b) { return strcmp(a, b); }
char* vgcapstone_strcpy(char* d, const char* s) { return strcpy(d, s); }
size_t vgcapstone_strlen(const char* s) { return strlen(s); }
char* vgcapstone_strncpy(char* d, const char* s, size_t n) { return strncpy(d, s, n); }
void vgcapstone___assert_fail(const char* e, const char* f, unsigned l, const char* fn)
{
   fprintf(stderr, "Capstone: %s:%u (%s): %s\n", f, l, fn, e);
   abort();
}

typedef struct {
   char* form;
   char* text;
   unsigned long count;
} form_t;

static form_t* forms;
static size_t n_forms, cap_forms;

/* A small open-addressing hash of the forms */
static size_t* slots;
static size_t n_slots = 1 << 16;

static size_t hash(const char* s)
{
   size_t h = 5381;
   while (*s) h = h * 33 + (unsigned char)*s++;
   return h;
}

/* texts llvm-mca is not likely to assemble or to cost like the rest */
static int awkward(const char* text)
{
   return strstr(text, "rip") != 0 || strstr(text, "[0]") != 0;
}

static void add(const char* form, const char* text)
{
   size_t i = hash(form) & (n_slots - 1);
   while (slots[i] != (size_t)-1) {
      form_t* f = &forms[slots[i]];
      if (strcmp(f->form, form) == 0) {
         f->count++;
         if (awkward(f->text) && !awkward(text)) {
            free(f->text);
            f->text = strdup(text);
         }
         return;
      }
      i = (i + 1) & (n_slots - 1);
   }
   if (n_forms == cap_forms) {
      cap_forms = cap_forms ? 2 * cap_forms : 1024;
      forms = realloc(forms, cap_forms * sizeof *forms);
   }
   if (n_forms * 2 > n_slots) {
      fprintf(stderr, "forms: too many forms\n");
      exit(1);
   }
   forms[n_forms].form = strdup(form);
   forms[n_forms].text = strdup(text);
   forms[n_forms].count = 1;
   slots[i] = n_forms++;
}

static unsigned char* read_file(const char* path, size_t* size)
{
   FILE* f = fopen(path, "rb");
   unsigned char* buf;
   long n;
   if (!f) return 0;
   fseek(f, 0, SEEK_END);
   n = ftell(f);
   fseek(f, 0, SEEK_SET);
   buf = malloc(n);
   if (fread(buf, 1, n, f) != (size_t)n) { fclose(f); free(buf); return 0; }
   fclose(f);
   *size = n;
   return buf;
}

static void decode(csh h, cs_arch arch, const unsigned char* code, size_t size,
                   uint64_t addr, size_t step)
{
   cs_insn* insn = cs_malloc(h);
   char form[64], text[256];

   while (size > 0) {
      if (!cs_disasm_iter(h, &code, &size, &addr, insn)) {
         size_t s = size < step ? size : step;
         code += s; size -= s; addr += s;
         continue;
      }
      cycle_form_key(h, arch, insn, form, sizeof form);
      snprintf(text, sizeof text, "%s %s", insn->mnemonic, insn->op_str);
      add(form, text);
   }
   cs_free(insn, 1);
}

/* Decode the executable sections of a 64-bit ELF file */
static void decode_elf(csh h, cs_arch arch, const char* path, size_t step)
{
   size_t size;
   unsigned char* buf = read_file(path, &size);
   Elf64_Ehdr* eh;
   Elf64_Shdr* sh;
   int i;

   if (!buf) { fprintf(stderr, "forms: cannot read %s\n", path); exit(1); }
   eh = (Elf64_Ehdr*)buf;
   if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0
       || eh->e_ident[EI_CLASS] != ELFCLASS64) {
      fprintf(stderr, "forms: %s is not a 64-bit ELF file\n", path);
      exit(1);
   }
   sh = (Elf64_Shdr*)(buf + eh->e_shoff);
   for (i = 0; i < eh->e_shnum; i++)
      if (sh[i].sh_type == SHT_PROGBITS && (sh[i].sh_flags & SHF_EXECINSTR)
          && sh[i].sh_offset + sh[i].sh_size <= size)
         decode(h, arch, buf + sh[i].sh_offset, sh[i].sh_size, sh[i].sh_addr, step);
   free(buf);
}

int main(int argc, char** argv)
{
   cs_opt_mem mem = { malloc, calloc, realloc, free, vsnprintf };
   cs_arch arch;
   cs_mode mode;
   csh h;
   size_t i, step;

   if (argc < 3) { fprintf(stderr, "usage: forms x86_64|aarch64 FILE...\n"); return 2; }
   if (strcmp(argv[1], "x86_64") == 0) { arch = CS_ARCH_X86; mode = CS_MODE_64; step = 1; }
   else if (strcmp(argv[1], "aarch64") == 0) { arch = CS_ARCH_ARM64; mode = CS_MODE_ARM; step = 4; }
   else { fprintf(stderr, "forms: unknown architecture %s\n", argv[1]); return 2; }
   cs_option(0, CS_OPT_MEM, (size_t)&mem);
   if (cs_open(arch, mode, &h) != CS_ERR_OK) { fprintf(stderr, "forms: cs_open failed\n"); return 1; }
   cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
   slots = malloc(n_slots * sizeof *slots);
   memset(slots, 0xff, n_slots * sizeof *slots);
   for (i = 2; i < (size_t)argc; i++) decode_elf(h, arch, argv[i], step);
   for (i = 0; i < n_forms; i++)
      printf("%s\t%lu\t%s\n", forms[i].form, forms[i].count, forms[i].text);
   cs_close(&h);
   return 0;
}
