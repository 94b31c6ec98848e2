/* view.c - where stacks start, which are kept, which frames they show
 * (see view.h). */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/flame.h>
#include <callgrind-utils/view.h>

static const char *const re_option[CGU_VIEW_NRE] = {
	"--focus", "--ignore", "--hide",
};

int cgu_view_compile(struct cgu_view *v, struct cgu_error *err)
{
	int i;

	for (i = 0; i < CGU_VIEW_NRE; i++) {
		regex_t *re;
		int rc;

		if (!v->re[i] || v->compiled[i])
			continue;
		re = malloc(sizeof(*re));
		if (!re)
			abort();
		rc = regcomp(re, v->re[i], REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char why[256];

			regerror(rc, re, why, sizeof(why));
			free(re);
			return cgu_error_set(err, CGU_EUSAGE, NULL, 0,
					     "%s '%s': bad regular expression: "
					     "%s", re_option[i], v->re[i], why);
		}
		v->compiled[i] = re;
	}
	return CGU_OK;
}

void cgu_view_release(struct cgu_view *v)
{
	int i;

	for (i = 0; i < CGU_VIEW_NRE; i++) {
		if (!v->compiled[i])
			continue;
		regfree(v->compiled[i]);
		free(v->compiled[i]);
		v->compiled[i] = NULL;
	}
}

int cgu_view_filters(const struct cgu_view *v)
{
	int i;

	for (i = 0; v && i < CGU_VIEW_NRE; i++)
		if (v->compiled[i])
			return 1;
	return 0;
}

int cgu_view_active(const struct cgu_view *v)
{
	return v && (!v->all_frames || cgu_view_filters(v));
}

/* Is function one of names (a symbol version, "@@GLIBC_2.34", left
 * aside)? */
static int one_of(const char *function, const char *const *names, size_t n)
{
	size_t len = strcspn(function, "@"), i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], function, len))
			return 1;
	return 0;
}

/* The entry points of a program, up to main, and of a thread, up to
 * start_thread. */
static int is_startup(const char *function, const char *object)
{
	static const char *const names[] = {
		"_start", "__start", "(below main)", "__libc_start_main",
		"__libc_start_call_main", "_dl_start_user", "clone", "clone3",
		"__clone", "__clone3", "__clone_internal",
	};

	if (one_of(function, names, sizeof(names) / sizeof(names[0])))
		return 1;
	/* the loader's own _start has no symbol in most distributions */
	return !strncmp(function, "0x", 2) && object && object[0] &&
	       cgu_frame_classify(function, object) == CGU_KIND_LOADER;
}


unsigned cgu_view_classify(const struct cgu_view *v, const char *function,
			   const char *object, const char *shown)
{
	static const unsigned bit[CGU_VIEW_NRE] = {
		CGU_FRAME_FOCUS, CGU_FRAME_IGNORE, CGU_FRAME_HIDE,
	};
	unsigned f = 0;
	int i;

	if (!v)
		return 0;
	if (!strcmp(function, "main") || !strcmp(function, "start_thread"))
		f |= CGU_FRAME_MAIN;
	else if (is_startup(function, object))
		f |= CGU_FRAME_STARTUP;
	for (i = 0; i < CGU_VIEW_NRE; i++)
		if (v->compiled[i] &&
		    !regexec(v->compiled[i], shown, 0, NULL, 0))
			f |= bit[i];
	return f;
}

/* The root of a stack, leaf first: at main (or start_thread), else
 * [start-up] for the leading start-up frames. */
static size_t cut_root(const unsigned char *flags, uint32_t startup,
		       uint32_t *path, size_t depth)
{
	size_t i, main_at = depth, n = depth;

	for (i = 0; i < depth; i++)
		if (flags[path[i]] & CGU_FRAME_MAIN)
			main_at = i;          /* the last is the outermost */
	if (main_at < depth)
		return main_at + 1;
	while (n > 0 && (flags[path[n - 1]] & CGU_FRAME_STARTUP))
		n--;
	if (n < depth)
		path[n++] = startup;
	return n;
}

size_t cgu_view_apply(const struct cgu_view *v, const unsigned char *flags,
		      uint32_t startup, uint32_t *path, size_t depth)
{
	size_t i, n;
	int focused = 0;

	if (!v)
		return depth;
	for (i = 0; i < depth; i++) {
		unsigned f = flags[path[i]];

		if (f & CGU_FRAME_IGNORE)
			return CGU_VIEW_DROP;
		if (f & CGU_FRAME_FOCUS)
			focused = 1;
	}
	if (v->compiled[CGU_VIEW_FOCUS] && !focused)
		return CGU_VIEW_DROP;
	if (!v->all_frames)
		depth = cut_root(flags, startup, path, depth);
	if (!v->compiled[CGU_VIEW_HIDE])
		return depth;
	for (i = 0, n = 0; i < depth; i++)
		if (path[i] == startup || !(flags[path[i]] & CGU_FRAME_HIDE))
			path[n++] = path[i];
	return n ? n : CGU_VIEW_DROP;
}
