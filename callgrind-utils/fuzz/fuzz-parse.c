/* fuzz-parse.c - libFuzzer target: parse any bytes as a Callgrind
 * profile, and when that succeeds run every output over the model.
 * Bytes that start like a stacks file ("# callgrind stacks", the exact
 * stacks of --collect-stacks=yes) go to the stacks parser instead, and
 * on success through the folds (which must add up to the totals), the
 * inclusive costs and the call graph drawn from the tree.
 * The DOT, pprof and Firefox Profiler exports run over every model too.
 * Built and run by 'make fuzz' (clang -fsanitize=fuzzer,address,undefined).
 * The first byte picks parser options so both part modes and a small
 * line limit get exercised, and a small max_input for compressed
 * input (gzip, xz, bzip2 and zstd, told by their magic bytes).  It also
 * checks the profile parser's fast paths against its general path
 * (check_fast_paths).
 * Its bits 4-5 pick the other inputs the tool reads: folded stacks
 * (what flamegraph, speedscope and diff read; bit 4), two sets of
 * folded stacks split at the first form feed for a differential graph
 * (bits 4 and 5), and a perf map of JIT symbols (bit 5), which then
 * names the functions of a small profile.  Bit 6 makes the input an
 * object file that a small profile names as its object: symbolize
 * --elf reads its symbols, annotate --asm its code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <callgrind-utils/callgrind-utils.h>
#include <callgrind-utils/annotate.h>
#include <callgrind-utils/elf.h>
#include <callgrind-utils/diff.h>
#include <callgrind-utils/export.h>
#include <callgrind-utils/flame.h>
#include <callgrind-utils/speedscope.h>
#include <callgrind-utils/transform.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The exports: the DOT graph of the model, pprof and the Firefox
 * Profiler file of its folded stacks (two events at most). */
static void run_exports(const struct cgu_profile *p, FILE *null)
{
	struct cgu_dot_opts dot = { 0, 0.5, 0.1, CGU_NAMES_AUTO, NULL, NULL,
				    NULL, 0 };
	struct cgu_fold_opts fold = { 0, CGU_FOLD_AUTO, 0, CGU_NAMES_AUTO, 0,
				      NULL };
	struct cgu_folded f[2];
	struct cgu_export_event ev[2];
	size_t n = 0, i;
	int e;

	for (e = 0; e < (int)p->nevents && e < 2; e++) {
		dot.event = fold.event = e;
		dot.node_thres = e ? 0 : 0.5;
		cgu_dot_write(p, &dot, null, NULL);
		cgu_folded_init(&f[n]);
		if (cgu_folded_from_profile(&f[n], p, &fold, "fuzz", NULL)) {
			cgu_folded_release(&f[n]);
			continue;
		}
		ev[n].name = p->events[e];
		ev[n].desc = p->event_desc[e];
		ev[n].stacks = &f[n];
		n++;
	}
	cgu_pprof_write(ev, n, NULL, null, NULL);
	cgu_firefox_write(ev, n, "fuzz", null, NULL);
	for (i = 0; i < n; i++)
		cgu_folded_release(&f[i]);
}

static void run_outputs(const struct cgu_profile *p, FILE *null)
{
	struct cgu_fold_opts fold = { 0, CGU_FOLD_AUTO, 0, CGU_NAMES_FULL, 0 };
	struct cgu_summary_opts sum = { 0, 5, 1, CGU_NAMES_FILE_FUNCTION };
	struct cgu_redact_opts red = { "/home" };
	struct cgu_profile *q;
	int ev;

	cgu_json_write(p, null, NULL);
	cgu_callgrind_write(p, null, NULL);
	for (ev = 0; ev < (int)p->nevents && ev < 2; ev++) {
		fold.event = sum.event = ev;
		cgu_edges_write(p, ev, CGU_NAMES_FUNCTION, null, NULL);
		cgu_summary_write(p, &sum, null, NULL);
		fold.mode = CGU_FOLD_AUTO;
		cgu_fold_write(p, &fold, null, NULL);
		fold.mode = CGU_FOLD_GRAPH;
		cgu_fold_write(p, &fold, null, NULL);
	}
	run_exports(p, null);
	q = cgu_redact(p, &red);
	cgu_edges_write(q, 0, CGU_NAMES_FULL, null, NULL);
	cgu_profile_free(q);
}

/* Parse text and write the model as JSON (or the error) into a new
 * string; *rc gets the parser's status. */
static char *parse_to_text(const char *text, size_t len,
			   const struct cgu_parse_opts *o, int *rc)
{
	struct cgu_profile_set set;
	struct cgu_error err;
	char *out = NULL;
	size_t n = 0, i;
	FILE *f = open_memstream(&out, &n);

	if (!f)
		abort();
	cgu_profile_set_init(&set);
	*rc = cgu_parse_mem(text, len, "fuzz", o, &set, &err);
	if (*rc)
		fprintf(f, "%s\n", err.msg);
	else
		for (i = 0; i < set.n; i++)
			cgu_json_write(set.v[i], f, NULL);
	cgu_profile_set_release(&set);
	fclose(f);
	return out;
}

/* The magic bytes of gzip, xz, bzip2 and zstd (src/lib/parse/reader.c). */
static int looks_compressed(const char *text, size_t len)
{
	static const char *const magic[] = { "\x1f\x8b", "\xfd" "7zXZ", "BZh",
					     "\x28\xb5\x2f\xfd" };
	size_t i;

	for (i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if (len >= strlen(magic[i]) &&
		    !memcmp(text, magic[i], strlen(magic[i])))
			return 1;
	return 0;
}

/* The parser has fast paths for the most frequent lines, which hand
 * anything unusual to the general path; a "\r\n" line ending is such a
 * thing.  So the same input with "\r\n" endings, read by the general
 * path only, must give the same model or the same error. */
static void check_fast_paths(const char *text, size_t len,
			     const struct cgu_parse_opts *o)
{
	char *crlf, *a, *b;
	size_t i, n = 0;
	int rc_a, rc_b;

	if (looks_compressed(text, len))     /* \r would corrupt it */
		return;
	crlf = malloc(2 * len + 1);
	if (!crlf)
		abort();
	for (i = 0; i < len; i++) {
		if (text[i] == '\r') {        /* already has a \r: no claim */
			free(crlf);
			return;
		}
		if (text[i] == '\n')
			crlf[n++] = '\r';
		crlf[n++] = text[i];
	}
	a = parse_to_text(text, len, o, &rc_a);
	b = parse_to_text(crlf, n, o, &rc_b);
	if (rc_a != rc_b || strcmp(a, b)) {
		fprintf(stderr, "fast and general paths differ:\n%s\n---\n%s\n",
			a, b);
		abort();
	}
	free(a);
	free(b);
	free(crlf);
}

static int add_cost(const char *stack, size_t len, cgu_cost cost, void *ctx)
{
	(void)stack;
	(void)len;
	*(cgu_cost *)ctx += cost;
	return 0;
}

/* Every fold of a tree adds up to its totals. */
static void check_cct_fold(const struct cgu_cct *c, int ev, int per_thread,
			   size_t part, enum cgu_name_style names)
{
	struct cgu_cct_fold_opts o = { ev, names, per_thread, part };
	const cgu_cost *want = cgu_cct_part_totals(c, part);
	cgu_cost sum = 0;

	if (cgu_cct_fold_each(c, &o, add_cost, &sum, NULL) || sum != want[ev]) {
		fprintf(stderr, "stacks fold of event %d adds up to %llu, "
			"expected %llu\n", ev, (unsigned long long)sum,
			(unsigned long long)want[ev]);
		abort();
	}
}

static void run_stacks(const char *text, size_t len,
		       const struct cgu_parse_opts *o, FILE *null)
{
	struct cgu_cct *c = cgu_cct_new();
	struct cgu_profile *p;
	cgu_cost *incl;
	size_t part;
	int ev;

	if (cgu_cct_parse_mem(c, text, len, "fuzz", o, NULL)) {
		cgu_cct_free(c);
		return;
	}
	for (ev = 0; ev < (int)c->nevents && ev < 2; ev++) {
		check_cct_fold(c, ev, 0, CGU_CCT_ALL_PARTS, CGU_NAMES_FUNCTION);
		check_cct_fold(c, ev, 1, CGU_CCT_ALL_PARTS, CGU_NAMES_FULL);
		for (part = 0; part < c->nparts && part < 3; part++)
			check_cct_fold(c, ev, 0, part, CGU_NAMES_FILE_FUNCTION);
	}
	p = cgu_cct_profile(c, c->nparts > 1 ? 1 : CGU_CCT_ALL_PARTS, &incl);
	run_outputs(p, null);
	free(incl);
	cgu_profile_free(p);
	cgu_cct_free(c);
}

/* The flame tree of f holds every count once, cut at max_depth or not. */
static void check_flame_total(const struct cgu_folded *f, uint32_t max_depth)
{
	struct cgu_flame_tree t;

	cgu_flame_tree_init(&t);
	t.max_depth = max_depth;
	if (cgu_flame_tree_add(&t, f, false, false, 1.0) == 0 &&
	    t.nodes[0].total != f->total) {
		fprintf(stderr, "flame tree holds %llu, the stacks %llu\n",
			(unsigned long long)t.nodes[0].total,
			(unsigned long long)f->total);
		abort();
	}
	cgu_flame_tree_release(&t);
}

/* Folded stacks: the flame graph (plain, a chart, cut short), the
 * speedscope, pprof and Firefox Profiler files, and with two counts per
 * line the differential graph. */
static void run_folded(const char *text, size_t len, FILE *null)
{
	struct cgu_flame_options fo;
	struct cgu_flame_tree t;
	struct cgu_folded f;
	struct cgu_speedscope_profile sp = { "Ir", &f };
	struct cgu_export_event ev = { "Ir", NULL, &f };

	cgu_folded_init(&f);
	if (cgu_folded_read_buf(&f, text, len, "fuzz", NULL)) {
		cgu_folded_release(&f);
		return;
	}
	check_flame_total(&f, 0);
	check_flame_total(&f, 3);
	cgu_flame_options_init(&fo);
	fo.max_frames = 64;
	cgu_flame_write_svg(&f, &fo, null);
	fo.flamechart = true;
	fo.reverse = true;
	cgu_flame_write_svg(&f, &fo, null);
	cgu_speedscope_write(&sp, 1, "fuzz", null);
	cgu_pprof_write(&ev, 1, NULL, null, NULL);
	cgu_firefox_write(&ev, 1, "fuzz", null, NULL);
	if (f.before) {
		cgu_flame_tree_init(&t);
		if (!cgu_diff_tree_folded(&t, &f, true, false)) {
			cgu_diff_write_folded(&t, null);
			cgu_diff_write_svg(&t, &fo, null);
		}
		cgu_flame_tree_release(&t);
	}
	cgu_folded_release(&f);
}

/* Two sets of folded stacks, before and after the first form feed:
 * the differential graph of two files (diff --folded A B). */
static void run_folded_pair(const char *text, size_t len, FILE *null)
{
	const char *ff = memchr(text, '\f', len);
	struct cgu_folded a, b;
	struct cgu_flame_options fo;
	struct cgu_flame_tree t;

	if (!ff)
		return;
	cgu_folded_init(&a);
	cgu_folded_init(&b);
	cgu_flame_tree_init(&t);
	if (!cgu_folded_read_buf(&a, text, (size_t)(ff - text), "a", NULL) &&
	    !cgu_folded_read_buf(&b, ff + 1, len - (size_t)(ff - text) - 1,
				 "b", NULL) &&
	    !cgu_diff_tree(&t, &a, &b, true, false)) {
		cgu_flame_options_init(&fo);
		fo.max_frames = 64;
		cgu_diff_write_folded(&t, null);
		cgu_diff_write_svg(&t, &fo, null);
	}
	cgu_flame_tree_release(&t);
	cgu_folded_release(&a);
	cgu_folded_release(&b);
}

/* A perf map names the 0x functions of a small profile (symbolize). */
static void run_perf_map(const char *text, size_t len, FILE *null)
{
	static const char prof[] =
		"events: Ir\nfn=main\n1 5\ncfn=0x1000\ncalls=2 0\n2 30\n"
		"fn=0x1000\n3 20\ncfn=0x2000'2\ncalls=1 0\n4 10\n"
		"fn=0x2000'2\n5 10\n";
	struct cgu_perf_map m = { 0 };
	struct cgu_profile_set set;
	struct cgu_profile *q;
	size_t i;

	if (cgu_perf_map_load_mem(&m, text, len, "fuzz.map", NULL)) {
		cgu_perf_map_release(&m);
		return;
	}
	for (i = 1; i < m.n; i++)
		if (m.syms[i - 1].start > m.syms[i].start)
			abort();            /* sorted, as cgu_perf_map_find needs */
	cgu_profile_set_init(&set);
	if (cgu_parse_mem(prof, sizeof(prof) - 1, "prof", NULL, &set, NULL))
		abort();
	q = cgu_symbolize(set.v[0], &m);
	if (q->totals[0] != set.v[0]->totals[0])
		abort();
	run_outputs(q, null);
	cgu_profile_free(q);
	cgu_profile_set_release(&set);
	cgu_perf_map_release(&m);
}

static void ignore_warning(void *ctx, const struct cgu_error *w)
{
	(void)ctx;
	(void)w;
}

static char elf_path[64];

static void remove_elf(void)
{
	unlink(elf_path);
}

/* The bytes as an object file on disk (one file a process, rewritten
 * each time, removed at exit), named by a profile with instruction
 * positions: its 0x
 * functions symbolized from it (--elf), its code annotated (--asm).
 * Debug files are looked for in a folder that does not exist. */
static void run_elf(const char *bytes, size_t len, FILE *null)
{
	static const struct cgu_debug_dirs dirs = { "/nonexistent-cgu-fuzz",
		NULL, "/nonexistent-cgu-fuzz" };
	struct cgu_asm_opts ao = { 0, 0, &dirs, ignore_warning, NULL };
	struct cgu_parse_opts po = { 0 };
	struct cgu_instr_costs ic;
	struct cgu_profile_set set;
	struct cgu_profile *q;
	char text[512];
	FILE *f;
	int n;

	if (!*elf_path) {
		snprintf(elf_path, sizeof(elf_path), "/tmp/cgu-fuzz-elf-%d",
			 (int)getpid());
		atexit(remove_elf);
	}
	f = fopen(elf_path, "wb");
	if (!f)
		abort();
	if (len && fwrite(bytes, 1, len, f) != len)
		abort();
	fclose(f);
	/* the addresses of the corpus' object (fuzz/corpus/elf-tiny):
	 * leaf at 0x4000b0, _start at 0x4000b6 */
	n = snprintf(text, sizeof(text), "positions: instr line\nevents: Ir\n"
		     "ob=%s\nfn=leaf\n0x4000b0 1 5\n+3 2 3\n+2 2 1\n"
		     "fn=0x4000b6\n0x4000b6 7 20\ncfn=leaf\n"
		     "calls=2 0x4000b0\n+5 7 9\nfn=0x2000'2\n0x2000 9 1\n",
		     elf_path);
	cgu_instr_costs_init(&ic);
	po.on_cost_line = cgu_instr_costs_collect;
	po.on_cost_line_ctx = &ic;
	cgu_profile_set_init(&set);
	if (cgu_parse_mem(text, (size_t)n, "elf-prof", &po, &set, NULL))
		abort();
	q = cgu_elf_symbolize_warn(set.v[0], &dirs, ignore_warning, NULL,
				   NULL);
	if (q) {
		if (q->totals[0] != set.v[0]->totals[0])
			abort();
		cgu_profile_free(q);
	}
	cgu_annotate_asm(set.v[0], &ic, &ao, null, NULL);
	cgu_instr_costs_release(&ic);
	cgu_profile_set_release(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct cgu_parse_opts o = { 0, 0, 0 };
	struct cgu_profile_set set;
	struct cgu_error err;
	size_t i;

	if (!null)
		null = fopen("/dev/null", "w");
	if (size == 0)
		return 0;
	o.separate_parts = data[0] & 1;
	o.no_check_totals = (data[0] >> 1) & 1;
	o.max_line = (data[0] & 4) ? 64 : 0;
	o.max_input = (data[0] & 8) ? 4096 : 0;
	if (data[0] & 0x40) {
		run_elf((const char *)data + 1, size - 1, null);
		return 0;
	}
	switch ((data[0] >> 4) & 3) {
	case 1:
		run_folded((const char *)data + 1, size - 1, null);
		return 0;
	case 2:
		run_perf_map((const char *)data + 1, size - 1, null);
		return 0;
	case 3:
		run_folded_pair((const char *)data + 1, size - 1, null);
		return 0;
	}
	if (cgu_is_stacks((const char *)data + 1, size - 1)) {
		run_stacks((const char *)data + 1, size - 1, &o, null);
		return 0;
	}
	cgu_profile_set_init(&set);
	if (cgu_parse_mem((const char *)data + 1, size - 1, "fuzz", &o, &set,
			  &err) == 0)
		for (i = 0; i < set.n; i++)
			run_outputs(set.v[i], null);
	cgu_profile_set_release(&set);
	if (!o.max_line)       /* a \r makes a line longer: not the same */
		check_fast_paths((const char *)data + 1, size - 1, &o);
	return 0;
}
