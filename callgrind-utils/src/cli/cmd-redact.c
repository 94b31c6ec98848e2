/* cmd-redact.c - callgrind-utils redact */
#include "cli.h"

enum { OPT_ROOT = CLI_OPT_FIRST_FREE };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	{ "root", required_argument, NULL, OPT_ROOT },
	{ NULL, 0, NULL, 0 }
};

static int redact_option(int opt, const char *arg, void *ctx)
{
	struct cgu_redact_opts *o = ctx;

	if (opt != OPT_ROOT)
		return -1;
	o->root = arg;
	return 0;
}

static int redact_write(const struct cgu_profile *p, int event, FILE *out,
			struct cgu_error *err, void *ctx)
{
	struct cgu_profile *q = cgu_redact(p, ctx);
	int rc = cgu_callgrind_write(q, out, err);

	(void)event;
	cgu_profile_free(q);
	return rc;
}

int cmd_redact(int argc, char **argv)
{
	struct cgu_redact_opts o = { NULL };
	struct cli_spec spec = {
		.name = "redact",
		.usage = "redact [options] [FILE|-]...",
		.help =
		"Write the profile back in Callgrind format with host-independent\n"
		"names: the loader becomes ld.so, versioned symbols lose @@GLIBC_..,\n"
		"__GI_ aliases and ifunc variants (__memcpy_avx_unaligned) become\n"
		"the plain function, raw addresses become 0xADDR, absolute paths\n"
		"under --root become relative and others keep their basename.\n"
		"Nodes whose names become equal are merged.  The pid is dropped.\n\n"
		"Options:\n"
		"      --root DIR        make paths under DIR relative to it\n"
		CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:h",
		.option = redact_option,
		.write = redact_write,
		.ctx = &o,
	};

	return cli_main(argc, argv, &spec);
}
