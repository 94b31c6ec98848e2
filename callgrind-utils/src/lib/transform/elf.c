/* elf.c - ELF symbol tables as perf maps, see elf.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include <callgrind-utils/elf.h>
#include <callgrind-utils/transform.h>

#include "elf-file.h"

#define PAGE_MASK 0xfffULL
#define MAX_VOTERS 256      /* 0x names used to infer the load offset */

int cgu_elf_open(struct cgu_elf_file *f, const char *path)
{
	f->e = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return -1;
	f->e = elf_begin(f->fd, ELF_C_READ, NULL);
	if (!f->e || elf_kind(f->e) != ELF_K_ELF) {
		if (f->e)
			elf_end(f->e);
		close(f->fd);
		f->e = NULL;
		errno = ENOEXEC;
		return -1;
	}
	return 0;
}

void cgu_elf_close(struct cgu_elf_file *f)
{
	if (f->e)
		elf_end(f->e);
	if (f->e || f->fd >= 0)
		close(f->fd);
}

static Elf_Scn *find_section(Elf *e, Elf64_Word type, GElf_Shdr *sh)
{
	for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s))
		if (gelf_getshdr(s, sh) && sh->sh_type == type)
			return s;
	return NULL;
}

/* The GNU build-id of e as lowercase hex; 0 if found. */
static int build_id(Elf *e, struct cgu_buf *hex)
{
	for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;
		while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + name_off, "GNU", 4) != 0)
				continue;
			const unsigned char *id = (unsigned char *)d->d_buf + desc_off;
			for (size_t i = 0; i < nh.n_descsz; i++)
				cgu_buf_addf(hex, "%02x", id[i]);
			return 0;
		}
	}
	return -1;
}

/* Try DIR/.build-id/xx/rest.debug for every DIR of a ':'-list. */
static int open_in_dirs(struct cgu_elf_file *f, const char *dirs, const char *hex)
{
	while (dirs && *dirs) {
		size_t len = strcspn(dirs, ":");
		struct cgu_buf path = CGU_BUF_INIT;
		cgu_buf_addf(&path, "%.*s/.build-id/%.2s/%s.debug", (int)len, dirs, hex, hex + 2);
		int rc = len ? cgu_elf_open(f, path.data) : -1;
		cgu_buf_release(&path);
		if (rc == 0)
			return 0;
		dirs += len + (dirs[len] == ':');
	}
	return -1;
}

int cgu_elf_open_debug(struct cgu_elf_file *f, Elf *obj, const struct cgu_debug_dirs *d)
{
	struct cgu_buf hex = CGU_BUF_INIT;
	int rc = -1;
	if (build_id(obj, &hex) == 0 && hex.len > 2)
		rc = open_in_dirs(f, d->nix_dirs, hex.data) == 0 ||
		     open_in_dirs(f, d->extra, hex.data) == 0 ||
		     open_in_dirs(f, d->system ? d->system : "/usr/lib/debug", hex.data) == 0
			? 0 : -1;
	cgu_buf_release(&hex);
	return rc;
}

static void add_func(struct cgu_elf_funcs *fs, uint64_t start, uint64_t size, const char *name)
{
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? fs->cap * 2 : 256;
		fs->v = realloc(fs->v, fs->cap * sizeof(*fs->v));
		if (!fs->v)
			abort();
	}
	fs->v[fs->n++] = (struct cgu_elf_func){ start, size, name };
}

/* Function symbols of one symbol table section. */
static void read_funcs(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, struct cgu_elf_funcs *fs)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 0; d && i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym) || sym.st_value == 0 ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (name && *name)
			add_func(fs, sym.st_value, sym.st_size, name);
	}
}

int cgu_elf_functions(Elf *e, struct cgu_elf_funcs *fs)
{
	GElf_Shdr sh;
	Elf_Scn *s = find_section(e, SHT_SYMTAB, &sh);
	if (!s)
		s = find_section(e, SHT_DYNSYM, &sh);
	if (!s)
		return -1;
	read_funcs(e, s, &sh, fs);
	return 0;
}

/* The page-aligned load offset that puts the most addresses exactly on a
 * function start; 0 for a fixed-address executable or without a match. */
static uint64_t load_offset(Elf *e, const struct cgu_elf_funcs *fs, const uint64_t *addrs, size_t n)
{
	GElf_Ehdr eh;
	uint64_t best = 0, cand[MAX_VOTERS];
	size_t votes[MAX_VOTERS], ncand = 0, most = 0;
	if (!gelf_getehdr(e, &eh) || eh.e_type != ET_DYN)
		return 0;
	for (size_t i = 0; i < n && i < MAX_VOTERS; i++) {
		for (size_t k = 0; k < fs->n; k++) {
			uint64_t s = fs->v[k].start;
			if (addrs[i] < s || ((addrs[i] - s) & PAGE_MASK))
				continue;
			size_t c = 0;
			while (c < ncand && cand[c] != addrs[i] - s)
				c++;
			if (c == ncand && ncand == MAX_VOTERS)
				continue;
			if (c == ncand) {
				cand[ncand] = addrs[i] - s;
				votes[ncand++] = 0;
			}
			if (++votes[c] > most || (votes[c] == most && cand[c] < best)) {
				most = votes[c];
				best = cand[c];
			}
		}
	}
	return best;
}

static void write_map(const struct cgu_elf_funcs *fs, uint64_t offset, struct cgu_buf *out)
{
	for (size_t i = 0; i < fs->n; i++)
		cgu_buf_addf(out, "%llx %llx %s\n",
			     (unsigned long long)(fs->v[i].start + offset),
			     (unsigned long long)(fs->v[i].size ? fs->v[i].size : 1),
			     fs->v[i].name);
}

int cgu_elf_open_error(const char *object, int e, struct cgu_error *err)
{
	if (!strcmp(object, "???") || !object[0])
		return cgu_error_set(err, CGU_EIO, object[0] ? object : "(none)",
				     0, "cannot read object: an object Callgrind "
				     "could not name, not a file");
	return cgu_error_set(err, CGU_EIO, object, 0, "cannot read object: %s",
			     e == ENOEXEC ? "not an ELF file" : strerror(e));
}

int cgu_elf_perf_map(const char *object, const struct cgu_debug_dirs *d,
		     const uint64_t *addrs, size_t naddrs,
		     struct cgu_buf *out, struct cgu_error *err)
{
	struct cgu_elf_file obj, dbg = { -1, NULL };
	struct cgu_elf_funcs fs = { 0 };
	elf_version(EV_CURRENT);
	if (!strcmp(object, "???") || cgu_elf_open(&obj, object) < 0)
		return cgu_elf_open_error(object, errno, err);
	int rc = cgu_elf_functions(obj.e, &fs);
	if (rc < 0 || fs.n == 0) {
		fs.n = 0;
		rc = cgu_elf_open_debug(&dbg, obj.e, d);
		if (rc == 0)
			rc = cgu_elf_functions(dbg.e, &fs);
	}
	if (rc == 0)
		write_map(&fs, load_offset(obj.e, &fs, addrs, naddrs), out);
	else
		rc = cgu_error_set(err, CGU_EINPUT, object, 0,
				   "expected a symbol table in the object or in a "
				   "debug file found by its build-id");
	free(fs.v);
	cgu_elf_close(&dbg);
	cgu_elf_close(&obj);
	return rc;
}

static int raw_address(const char *fn, uint64_t *addr)
{
	char *end;
	if (fn[0] != '0' || fn[1] != 'x')
		return -1;
	*addr = strtoull(fn + 2, &end, 16);
	return end == fn + 2 ? -1 : 0;
}

/* The 0x addresses of object obj's functions. */
static size_t object_addresses(const struct cgu_profile *p, const char *obj,
			       uint64_t **addrs)
{
	size_t n = 0;
	*addrs = malloc((p->nnodes ? p->nnodes : 1) * sizeof(**addrs));
	if (!*addrs)
		abort();
	for (size_t i = 0; i < p->nnodes; i++)
		if (p->nodes[i].object == obj &&
		    raw_address(p->nodes[i].function, &(*addrs)[n]) == 0)
			n++;
	return n;
}

/* Was node i's object handled at an earlier 0x-named node? */
static int seen_before(const struct cgu_profile *p, size_t i)
{
	uint64_t addr;
	for (size_t k = 0; k < i; k++)
		if (p->nodes[k].object == p->nodes[i].object &&
		    raw_address(p->nodes[k].function, &addr) == 0)
			return 1;
	return 0;
}

/* Symbolize; an object that cannot be read is an error (warn NULL), or
 * is reported to warn and keeps its 0x names. */
static struct cgu_profile *symbolize(const struct cgu_profile *p,
				     const struct cgu_debug_dirs *d,
				     cgu_warning_fn warn, void *ctx,
				     struct cgu_error *err)
{
	struct cgu_buf text = CGU_BUF_INIT;
	struct cgu_perf_map map = { 0, 0, NULL, CGU_ARENA_INIT };
	struct cgu_profile *q = NULL;
	struct cgu_error w;
	uint64_t addr;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < p->nnodes; i++) {
		const struct cgu_node *n = &p->nodes[i];
		if (!n->object[0] || raw_address(n->function, &addr) < 0 || seen_before(p, i))
			continue;
		uint64_t *addrs;
		size_t na = object_addresses(p, n->object, &addrs);
		size_t len = text.len;
		rc = cgu_elf_perf_map(n->object, d, addrs, na, &text,
				      warn ? &w : err);
		free(addrs);
		if (rc && warn) {
			cgu_buf_truncate(&text, len);
			size_t m = strlen(w.msg);
			snprintf(w.msg + m, sizeof(w.msg) - m, "; its 0x names "
				 "are kept");
			warn(ctx, &w);
			rc = 0;
		}
	}
	if (rc == 0)
		rc = cgu_perf_map_load_mem(&map, text.data, text.len, "ELF symbols", err);
	if (rc == 0)
		q = cgu_symbolize(p, &map);
	cgu_perf_map_release(&map);
	cgu_buf_release(&text);
	return q;
}

struct cgu_profile *cgu_elf_symbolize(const struct cgu_profile *p,
				      const struct cgu_debug_dirs *d,
				      struct cgu_error *err)
{
	return symbolize(p, d, NULL, NULL, err);
}

struct cgu_profile *cgu_elf_symbolize_warn(const struct cgu_profile *p,
					   const struct cgu_debug_dirs *d,
					   cgu_warning_fn warn, void *ctx,
					   struct cgu_error *err)
{
	return symbolize(p, d, warn, ctx, err);
}
