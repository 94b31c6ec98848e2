/* elf-file.h - private helpers of elf.c shared with annotate.c: open an
 * object, find its debug file, list its function symbols. */
#ifndef CGU_ELF_FILE_H
#define CGU_ELF_FILE_H

#include <gelf.h>
#include <callgrind-utils/elf.h>

struct cgu_elf_file {
	int fd;
	Elf *e;
};

struct cgu_elf_func {
	uint64_t start, size;
	const char *name;   /* in the ELF's string table, valid while open */
};

struct cgu_elf_funcs {
	struct cgu_elf_func *v;
	size_t n, cap;
};

/* 0, or -1 with errno (ENOEXEC: not an ELF file); elf_version() first. */
int cgu_elf_open(struct cgu_elf_file *f, const char *path);
void cgu_elf_close(struct cgu_elf_file *f);
/* err for an object that did not open with errno e ("???": not a
 * file); returns CGU_EIO. */
int cgu_elf_open_error(const char *object, int e, struct cgu_error *err);
/* The debug file of obj by build-id, in the order of elf.h; 0 or -1. */
int cgu_elf_open_debug(struct cgu_elf_file *f, Elf *obj, const struct cgu_debug_dirs *d);
/* Append the function symbols of .symtab (else .dynsym); -1 if neither. */
int cgu_elf_functions(Elf *e, struct cgu_elf_funcs *fs);

#endif
