/* output.h - text outputs of a finished profile.
 *
 * Every writer takes an event index (see cgu_profile_event()) where it
 * shows one event, writes to a FILE and returns 0, or CGU_EIO/CGU_EUSAGE
 * with err filled.
 */
#ifndef CALLGRIND_UTILS_OUTPUT_H
#define CALLGRIND_UTILS_OUTPUT_H

#include <stdio.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a node is named in text outputs. */
enum cgu_name_style {
	CGU_NAMES_FUNCTION,     /* "main" */
	CGU_NAMES_FILE_FUNCTION,/* "t.c:main" as callgrind_annotate shows */
	CGU_NAMES_FULL,         /* "t.c:main [/path/obj]" */
	CGU_NAMES_AUTO,         /* "main", or as long as it takes to tell
				   functions of the same name apart (see
				   cgu_name_table_build()) */
};

/* Append the name of node n in the given style. */
void cgu_node_name(const struct cgu_profile *p, uint32_t n,
		   enum cgu_name_style style, struct cgu_buf *out);
/* The same for a function (of a profile or a calling-context tree). */
void cgu_frame_name(const struct cgu_node *node, enum cgu_name_style style,
		    struct cgu_buf *out);

/* The names of n functions in a style.  CGU_NAMES_AUTO: the function
 * name, unless distinct functions share it (other files or objects):
 * those are "base:function" (the base name of the file), where that is
 * the same too "file:function", and then "file:function [object]".
 * Other styles: cgu_frame_name(). */
struct cgu_name_table {
	struct cgu_buf text;
	size_t *off;               /* name i at text.data + off[i] */
	size_t n;
};
void cgu_name_table_build(struct cgu_name_table *t, const struct cgu_node *v,
			  size_t n, enum cgu_name_style style);
void cgu_name_table_release(struct cgu_name_table *t);
static inline const char *cgu_name_table_get(const struct cgu_name_table *t,
					     size_t i)
{
	return t->text.data + t->off[i];
}

/* summary: the top n nodes (0 = all) by self or inclusive cost of the
 * event, with the costs of that event, or of all events (a column of
 * self cost for each, then one of inclusive cost for each, and the
 * sort event's percentages). */
struct cgu_summary_opts {
	int event;                /* the event sorted by */
	size_t top;
	int by_inclusive;
	enum cgu_name_style names;
	/* inclusive cost of node i for event e at [i * nevents + e] (exact,
	 * from a calling-context tree: cgu_cct_profile()); NULL: from the
	 * call graph (cgu_node_inclusive()) */
	const cgu_cost *inclusive;
	const char *note;         /* a "# note" line under the first; NULL */
	int all_events;           /* a column for every event */
	/* callgrind_annotate's --threshold: the lines stop once the ones
	 * before hold this percent of the sorted cost; 0 = no limit */
	double threshold;
	/* percentages of this total of the event (the profile's, when p
	 * holds only part of it); NULL: p's totals */
	const cgu_cost *totals;
};
int cgu_summary_write(const struct cgu_profile *p,
		      const struct cgu_summary_opts *o, FILE *out,
		      struct cgu_error *err);

/* edges: "caller -> callee calls cost" lines, sorted bytewise; edges whose
 * printed names are equal are summed into one line. */
int cgu_edges_write(const struct cgu_profile *p, int event,
		    enum cgu_name_style names, FILE *out,
		    struct cgu_error *err);

/* json: header, events, totals, nodes and edges with every event, and
 * "stacks":"none" (the model holds no stacks). */
int cgu_json_write(const struct cgu_profile *p, FILE *out,
		   struct cgu_error *err);
/* The same with "stacks":"exact" and the calling-context tree of part
 * (or of all parts) of c as "cct" (cct.h); c NULL is cgu_json_write(). */
struct cgu_cct;
int cgu_json_write_cct(const struct cgu_profile *p, const struct cgu_cct *c,
		       size_t part, FILE *out, struct cgu_error *err);

/* Write p back in Callgrind format (used by redact and symbolize). */
int cgu_callgrind_write(const struct cgu_profile *p, FILE *out,
			struct cgu_error *err);

/* fold: Brendan Gregg folded stacks "root;...;leaf cost", sorted.
 *
 * CGU_FOLD_EXACT uses the caller context in names ("c'b'a" from
 * --separate-callers); CGU_FOLD_GRAPH reconstructs stacks from the call
 * graph (see src/lib/transform/fold.c for the heuristic); CGU_FOLD_AUTO picks EXACT when
 * some function name carries caller context.  The costs of the lines sum
 * to the profile total of the event in every mode. */
enum cgu_fold_mode { CGU_FOLD_AUTO, CGU_FOLD_EXACT, CGU_FOLD_GRAPH };

struct cgu_view;
struct cgu_fold_opts {
	int event;
	enum cgu_fold_mode mode;
	/* GRAPH mode: stop splitting a share of cost over several callers
	 * once it is below min_fraction of the event total; the share then
	 * follows the heaviest caller.  0 = default (1e-4), < 0 = never. */
	double min_fraction;
	enum cgu_name_style names;
	/* GRAPH mode: stop with an error (CGU_EINPUT) once the stacks hold
	 * this many frames in all, frames climbed past the 4096th of a
	 * stack counted too; 0 = default (CGU_FOLD_DEFAULT_MAX_FRAMES). */
	unsigned long long max_frames;
	/* where stacks start, which are kept, what frames they show
	 * (view.h); NULL: every frame of every stack */
	const struct cgu_view *view;
};
#define CGU_FOLD_DEFAULT_MAX_FRAMES 50000000ull

/* Does mode m fold p from the caller context in names (else from the
 * call graph)? */
int cgu_fold_uses_context(const struct cgu_profile *p, enum cgu_fold_mode m);

int cgu_fold_write(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		   FILE *out, struct cgu_error *err);
/* The same, appended to a buffer. */
int cgu_fold_buf(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		 struct cgu_buf *out, struct cgu_error *err);
/* Called once per folded line, in sorted order. */
typedef int (*cgu_fold_cb)(const char *stack, size_t len, cgu_cost cost,
			   void *ctx);
int cgu_fold_each(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		  cgu_fold_cb cb, void *ctx, struct cgu_error *err);

#ifdef __cplusplus
}
#endif
#endif
