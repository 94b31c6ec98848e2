/* cmd-symbolize.c - callgrind-utils symbolize --perf-map FILE */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <stdlib.h>
#include "cli.h"
#ifdef HAVE_LIBELF
#include <callgrind-utils/elf.h>
#endif

enum { OPT_PERF_MAP = CLI_OPT_FIRST_FREE, OPT_ELF, OPT_DEBUG_DIR };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	{ "perf-map", required_argument, NULL, OPT_PERF_MAP },
	{ "elf", no_argument, NULL, OPT_ELF },
	{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
	{ NULL, 0, NULL, 0 }
};

struct symbolize_ctx {
	struct cgu_perf_map map;
	int loaded;
	int elf;                 /* --elf */
	const char *debug_dir;   /* --debug-dir */
	int status;
};

static int symbolize_option(int opt, const char *arg, void *ctx)
{
	struct symbolize_ctx *s = ctx;
	struct cgu_error err;

	if (opt == OPT_ELF || opt == OPT_DEBUG_DIR) {
		s->elf = 1;
		if (opt == OPT_DEBUG_DIR)
			s->debug_dir = arg;
		return 0;
	}
	if (opt != OPT_PERF_MAP)
		return -1;
	if (cgu_perf_map_load(&s->map, arg, &err)) {
		s->status = cli_report(&err);
		return -1;
	}
	s->loaded = 1;
	return 0;
}

static int symbolize_check(void *ctx)
{
	struct symbolize_ctx *s = ctx;

	if (s->status)
		return s->status;
#ifndef HAVE_LIBELF
	if (s->elf)
		return cli_usage_error("symbolize", "--elf: built without libelf");
#endif
	if (!s->loaded && !s->elf)
		return cli_usage_error("symbolize", "--perf-map MAP or --elf is required");
	return 0;
}

static int symbolize_write(const struct cgu_profile *p, int event, FILE *out,
			   struct cgu_error *err, void *ctx)
{
	struct symbolize_ctx *s = ctx;
	struct cgu_profile *named = NULL, *q;
	int rc;

	(void)event;
#ifdef HAVE_LIBELF
	struct cgu_debug_dirs dirs = { getenv("NIX_DEBUG_INFO_DIRS"), s->debug_dir, NULL };
	if (s->elf && !(named = cgu_elf_symbolize_warn(p, &dirs, cli_warning,
						       NULL, err)))
		return err->code;
#endif
	q = cgu_symbolize(named ? named : p, &s->map);
	rc = cgu_callgrind_write(q, out, err);
	cgu_profile_free(q);
	cgu_profile_free(named);
	return rc;
}

int cmd_symbolize(int argc, char **argv)
{
	struct symbolize_ctx s = { .map = { 0, 0, NULL, CGU_ARENA_INIT } };
	struct cli_spec spec = {
		.name = "symbolize",
		.usage = "symbolize --perf-map MAP | --elf [options] [FILE|-]...",
		.help =
		"Write the profile back in Callgrind format with functions named\n"
		"0x<address> (JIT code) replaced by the perf map symbol whose\n"
		"range holds the address.  MAP has lines 'START SIZE name' in hex\n"
		"(/tmp/perf-PID.map).  Parts of context names ('-separated) are\n"
		"symbolized alike; 'N recursion suffixes are kept.\n\n"
		"Options:\n"
		"      --perf-map MAP    the perf map (may repeat)\n"
		"      --elf             name 0x addresses from the symbol tables of\n"
		"                        the objects on disk, or of their debug files\n"
		"                        by build-id: $NIX_DEBUG_INFO_DIRS, --debug-dir,\n"
		"                        /usr/lib/debug\n"
		"      --debug-dir DIR   extra debug file directory (implies --elf)\n"
		CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:h",
		.option = symbolize_option,
		.check = symbolize_check,
		.write = symbolize_write,
		.ctx = &s,
	};
	int rc;

	rc = cli_main(argc, argv, &spec);
	if (s.status)
		rc = s.status;
	cgu_perf_map_release(&s.map);
	return rc;
}
