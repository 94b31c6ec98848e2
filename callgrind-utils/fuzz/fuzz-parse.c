/* fuzz-parse.c - libFuzzer target: parse any bytes as a Callgrind
 * profile, and when that succeeds run every output over the model.
 * Built and run by 'make fuzz' (clang -fsanitize=fuzzer,address,undefined).
 * The first byte picks parser options so both part modes and a small
 * line limit get exercised. */
#include <stdio.h>
#include <stdlib.h>
#include <callgrind-utils/callgrind-utils.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_outputs(const struct cgu_profile *p, FILE *null)
{
	struct cgu_fold_opts fold = { 0, CGU_FOLD_AUTO, 0, CGU_NAMES_FULL };
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
	q = cgu_redact(p, &red);
	cgu_edges_write(q, 0, CGU_NAMES_FULL, null, NULL);
	cgu_profile_free(q);
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
	cgu_profile_set_init(&set);
	if (cgu_parse_mem((const char *)data + 1, size - 1, "fuzz", &o, &set,
			  &err) == 0)
		for (i = 0; i < set.n; i++)
			run_outputs(set.v[i], null);
	cgu_profile_set_release(&set);
	return 0;
}
