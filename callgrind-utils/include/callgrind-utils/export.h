/* export.h - profiles for the tools people already use: pprof
 * (profile.proto, gzip'd), the Firefox Profiler (its processed profile
 * format) and Graphviz (a call graph in DOT).
 *
 * pprof and the Firefox Profiler get stacks: folded stacks of every event
 * (folded.h), as the fold command makes them, merged into one tree so
 * that a stack shared by several events is one sample with a value per
 * event.  DOT gets the call graph of a profile (model.h).
 */
#ifndef CALLGRIND_UTILS_EXPORT_H
#define CALLGRIND_UTILS_EXPORT_H

#include <stddef.h>
#include <stdio.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/folded.h>
#include <callgrind-utils/model.h>
#include <callgrind-utils/output.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The stacks of one event. */
struct cgu_export_event {
	const char *name;                /* "Ir" */
	const char *desc;                /* "Instruction Fetch", or NULL */
	const struct cgu_folded *stacks;
};

/* pprof: a gzip'd perftools.profiles.Profile with one sample type per
 * event (unit "count"), one sample per distinct stack, one function and
 * one location per frame (with its source file), one mapping per object
 * (the program's first).  A function's name is the frame's text as the
 * folded stacks have it ("f", or "file:f [OBJECT]" where the names need
 * the object), its system name without the annotation.
 * The first event is the default sample type. */
struct cgu_pprof_opts {
	const char *const *comments;     /* shown by pprof -comments */
	size_t ncomments;
	/* the profiled command ("./prog arg"): its object is the first
	 * mapping, the main binary pprof names with "File:"; or NULL */
	const char *program;
	/* stop with an error (CGU_EINPUT) once the samples hold this many
	 * frames in all; 0 = CGU_EXPORT_DEFAULT_MAX_FRAMES */
	unsigned long long max_frames;
};
#define CGU_EXPORT_DEFAULT_MAX_FRAMES 50000000ull
int cgu_pprof_write(const struct cgu_export_event *events, size_t n,
		    const struct cgu_pprof_opts *o, FILE *out,
		    struct cgu_error *err);

/* Firefox Profiler: a processed profile (its preprocessedProfileVersion
 * CGU_FIREFOX_VERSION, which the profiler upgrades from) with one thread
 * per event, named after it, whose samples carry the costs as weights
 * (weightType "samples"): one sample per stack, not one per count.
 * Frames are categorised by object (user code, libc, loader, JIT,
 * skipped) and named by their text, as pprof's functions; name is the
 * product shown as the title. */
#define CGU_FIREFOX_VERSION 70
int cgu_firefox_write(const struct cgu_export_event *events, size_t n,
		      const char *name, FILE *out, struct cgu_error *err);

/* DOT: the call graph of event o->event, as gprof2dot draws one.  A node
 * is kept when its inclusive cost is at least node_thres percent of the
 * event's total, an edge between two kept nodes when the inclusive cost
 * of its calls is at least edge_thres percent.  Nodes show the name, the
 * inclusive and (in parentheses) the self percentage, edges the
 * percentage and the number of calls; both are coloured from blue (cold)
 * to red (hot) by that percentage.  Nodes are named in style o->names
 * (cgu_name_table_build(): CGU_NAMES_AUTO keeps functions of the same
 * name apart), their tooltips with file and object. */
struct cgu_dot_opts {
	int event;
	double node_thres;               /* percent; default 0.5 */
	double edge_thres;               /* percent; default 0.1 */
	enum cgu_name_style names;
	/* inclusive cost of node i for event e at [i * nevents + e] (exact,
	 * cgu_cct_profile()); NULL: from the call graph */
	const cgu_cost *inclusive;
	const char *title;               /* graph label, or NULL */
	/* the percentages and thresholds of this total of the event (the
	 * whole profile's, when p holds only some of its stacks); NULL:
	 * p's totals */
	const cgu_cost *totals;
	/* p has no numbers of calls (a graph made of stacks): none drawn */
	int no_calls;
};
int cgu_dot_write(const struct cgu_profile *p, const struct cgu_dot_opts *o,
		  FILE *out, struct cgu_error *err);

#ifdef __cplusplus
}
#endif
#endif
