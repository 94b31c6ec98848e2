/* elf.h - name raw addresses from the symbol tables of objects on disk
 * (libelf).
 *
 * Callgrind names code it has no symbols for "0x<address>", the run-time
 * address.  For every object of the profile that holds such names, the
 * object's symbol table is read (.symtab, else .dynsym) or, when the object
 * is stripped, the one of its debug file, found by build-id in the same
 * order as the Valgrind patch: each directory of NIX_DEBUG_INFO_DIRS, the
 * extra path, then /usr/lib/debug (DIR/.build-id/xx/rest.debug).
 *
 * Shared objects and PIE programs are loaded at an address the profile
 * does not record.  The load offset is inferred: the page-aligned offset
 * that puts the most of the object's 0x names exactly on a function's
 * start (Callgrind names a function after the address it was entered at).
 * The symbols then become a perf map (transform.h), and cgu_symbolize()
 * renames the profile, so both ways of naming share one code path.
 */
#ifndef CALLGRIND_UTILS_ELF_H
#define CALLGRIND_UTILS_ELF_H

#include <callgrind-utils/buf.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/model.h>
#include <callgrind-utils/parse.h>

struct cgu_debug_dirs {
	const char *nix_dirs;    /* NIX_DEBUG_INFO_DIRS: DIR[:DIR...], or NULL */
	const char *extra;       /* --extra-debuginfo-path, or NULL */
	const char *system;      /* NULL: /usr/lib/debug */
};

/* Append "START SIZE name" perf map lines for the function symbols of
 * object to out, at run-time addresses: addrs are the object's 0x names,
 * from which the load offset is inferred. */
int cgu_elf_perf_map(const char *object, const struct cgu_debug_dirs *d,
		     const uint64_t *addrs, size_t naddrs,
		     struct cgu_buf *out, struct cgu_error *err);

/* The profile with 0x names replaced by ELF symbols, or NULL with err
 * filled: CGU_EIO when an object with 0x names is not on disk or is not
 * an ELF file, CGU_EINPUT when it has no symbols (nor a debug file). */
struct cgu_profile *cgu_elf_symbolize(const struct cgu_profile *p,
				      const struct cgu_debug_dirs *d,
				      struct cgu_error *err);
/* The same, but an object that cannot be read ("???", Callgrind's
 * unknown object, one not on disk, not ELF, without symbols) keeps its
 * 0x names, and warn (when not NULL) gets one message per such object:
 * "OBJECT: why; its 0x names are kept". */
struct cgu_profile *cgu_elf_symbolize_warn(const struct cgu_profile *p,
					   const struct cgu_debug_dirs *d,
					   cgu_warning_fn warn, void *ctx,
					   struct cgu_error *err);

#endif
