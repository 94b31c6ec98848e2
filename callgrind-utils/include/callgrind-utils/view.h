/* view.h - what folded stacks show: where they start, which of them are
 * kept and which frames they hold.  fold, flamegraph, speedscope, diff
 * and summary take one (cgu_fold_opts.view, cgu_cct_fold_opts.view).
 *
 *  - Root.  Unless all_frames, a stack that goes through a function
 *    named main starts at (the outermost) main, a thread's stack at
 *    start_thread; any other stack (the dynamic loader's work before
 *    main, exit handlers after it) has its leading start-up frames (the
 *    loader's unnamed entry, _start, (below main), __libc_start_main,
 *    __libc_start_call_main, _dl_start_user, clone, clone3) replaced by
 *    one frame "[start-up]".  So the roots are main, start_thread and
 *    [start-up], which also holds the start-up frames' own cost.
 *  - focus RE: only the stacks with a frame matching RE are kept;
 *    ignore RE: the stacks with a frame matching RE are dropped (both
 *    on the whole stack, before the root is cut); hide RE: frames
 *    matching RE are taken out of the stacks (a stack of hidden frames
 *    only is dropped).  REs are POSIX extended regular expressions,
 *    matched against the names as printed (--names), anywhere in them.
 * (Merging recursion levels and caller contexts is a rename of the
 * profile: cgu_merge_names() of transform.h.)
 */
#ifndef CALLGRIND_UTILS_VIEW_H
#define CALLGRIND_UTILS_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/model.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CGU_VIEW_FOCUS, CGU_VIEW_IGNORE, CGU_VIEW_HIDE, CGU_VIEW_NRE };

struct cgu_view {
	int all_frames;
	const char *re[CGU_VIEW_NRE];    /* NULL: none */
	/* private, made by cgu_view_compile() */
	void *compiled[CGU_VIEW_NRE];
};

/* Compile the regular expressions: 0, or CGU_EUSAGE with err saying
 * which one is bad and why. */
int cgu_view_compile(struct cgu_view *v, struct cgu_error *err);
void cgu_view_release(struct cgu_view *v);
/* Does v change anything (a NULL v does not)? */
int cgu_view_active(const struct cgu_view *v);
/* Does v have a regular expression (focus, ignore or hide)? */
int cgu_view_filters(const struct cgu_view *v);

/* What a frame is to a view, from its function (and object: an unnamed
 * function of the loader is start-up) and its printed name.  MAIN is
 * main or start_thread. */
#define CGU_FRAME_MAIN    1u
#define CGU_FRAME_STARTUP 2u
#define CGU_FRAME_FOCUS   4u
#define CGU_FRAME_IGNORE  8u
#define CGU_FRAME_HIDE    16u
unsigned cgu_view_classify(const struct cgu_view *v, const char *function,
			   const char *object, const char *shown);

/* Apply v to a stack of frames, leaf first: path[0..depth), flags[f]
 * the classification of frame f, startup the caller's frame
 * "[start-up]".  Returns the new depth (path changed in place; never
 * more than depth, nor 0), or CGU_VIEW_DROP when the stack is left
 * out. */
#define CGU_VIEW_DROP SIZE_MAX
size_t cgu_view_apply(const struct cgu_view *v, const unsigned char *flags,
		      uint32_t startup, uint32_t *path, size_t depth);

#ifdef __cplusplus
}
#endif
#endif
