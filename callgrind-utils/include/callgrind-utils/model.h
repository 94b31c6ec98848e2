/* model.h - the call-graph model of one Callgrind profile.
 *
 * A profile is plain data, built by the parser (parse.h) or by hand with
 * the builder functions below, and read by every output (output.h).
 *
 *  - events:  nevents short names ("Ir", "Dr", ...) in file order, with the
 *             long description from an "event:" line when there is one.
 *  - nodes:   one per distinct (function, object, file).  Names are
 *             interned: equal names share one pointer.  An unknown object
 *             or file is "" (the empty string), never NULL.
 *             Self cost of node i for event e: cgu_self(p, i)[e].
 *  - edges:   one per distinct (caller node, callee node), summed over call
 *             sites: the number of calls and the inclusive cost of those
 *             calls per event, cgu_edge_cost(p, j)[e].
 *  - totals:  sum of the self costs per event, which is the cost of the
 *             whole profile.  The parser checks it against "summary:" and
 *             "totals:" lines.
 *
 * After cgu_profile_finish(), the adjacency arrays give each node's
 * outgoing and incoming edges (edge indices, in order of creation):
 *
 *	for (k = p->out_start[n]; k < p->out_start[n + 1]; k++)
 *		edge = &p->edges[p->out_edges[k]];
 *	for (k = p->in_start[n]; k < p->in_start[n + 1]; k++)
 *		edge = &p->edges[p->in_edges[k]];
 *
 * Indices are uint32_t; node and edge indices are stable once added.
 * Pointers returned by cgu_self()/cgu_edge_cost() stay valid until the next
 * node or edge is added.
 */
#ifndef CALLGRIND_UTILS_MODEL_H
#define CALLGRIND_UTILS_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <callgrind-utils/arena.h>
#include <callgrind-utils/error.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t cgu_cost;

#define CGU_MAX_EVENTS 64

struct cgu_node {
	const char *function;
	const char *object;
	const char *file;
};

struct cgu_edge {
	uint32_t caller;   /* node index */
	uint32_t callee;   /* node index */
	uint64_t calls;
};

/* A header line the parser did not interpret ("key: value"), kept. */
struct cgu_header {
	const char *key;
	const char *value;
};

struct cgu_names;  /* private intern table */
struct cgu_index;  /* private hash indexes */

struct cgu_profile {
	/* events */
	size_t nevents;
	const char *events[CGU_MAX_EVENTS];
	const char *event_desc[CGU_MAX_EVENTS];   /* NULL when not given */
	cgu_cost totals[CGU_MAX_EVENTS];          /* valid after finish */

	/* header information (NULL when absent) */
	const char *creator;
	const char *cmd;
	const char *pid;
	const char *thread;
	const char *part;
	const char *positions;                    /* "line", "instr line", ... */
	size_t nheaders;                          /* unknown and desc: keys */
	struct cgu_header *headers;

	/* nodes */
	size_t nnodes;
	struct cgu_node *nodes;
	cgu_cost *self_costs;                     /* nnodes * nevents */

	/* edges */
	size_t nedges;
	struct cgu_edge *edges;
	cgu_cost *edge_costs;                     /* nedges * nevents */

	/* adjacency, valid after cgu_profile_finish() */
	uint32_t *out_start, *out_edges;          /* nnodes + 1, nedges */
	uint32_t *in_start, *in_edges;

	/* jump= and jcnd= lines seen (the model keeps only their count) */
	uint64_t njumps;

	/* private */
	size_t node_cap, edge_cap, header_cap;
	struct cgu_arena arena;
	struct cgu_index *index;
};

/* A list of profiles: one per part when parts are kept apart. */
struct cgu_profile_set {
	size_t n;
	struct cgu_profile **v;
	const char **source;   /* "file" or "file#part" of each profile */
};

struct cgu_profile *cgu_profile_new(void);
void cgu_profile_free(struct cgu_profile *p);

/* Set the events, once, before any cost is added. */
int cgu_profile_set_events(struct cgu_profile *p, const char *const *names,
			   size_t n, struct cgu_error *err);
/* Index of the event called name, or -1. */
int cgu_profile_event(const struct cgu_profile *p, const char *name);

/* Intern a string in the profile (stable pointer, equal strings equal). */
const char *cgu_profile_intern(struct cgu_profile *p, const char *s,
			       size_t len);
/* Node for (function, object, file), created with zero cost if new.  The
 * strings need not be interned. */
uint32_t cgu_profile_node(struct cgu_profile *p, const char *function,
			  const char *object, const char *file);
/* The same for strings already returned by cgu_profile_intern() for p
 * (no re-interning: the fast path of the parser). */
uint32_t cgu_profile_node_interned(struct cgu_profile *p,
				   const char *function, const char *object,
				   const char *file);
/* Edge caller -> callee, created with zero calls and cost if new. */
uint32_t cgu_profile_edge(struct cgu_profile *p, uint32_t caller,
			  uint32_t callee);
void cgu_profile_add_header(struct cgu_profile *p, const char *key,
			    const char *value);

static inline cgu_cost *cgu_self(const struct cgu_profile *p, uint32_t node)
{
	return p->self_costs + (size_t)node * p->nevents;
}

static inline cgu_cost *cgu_edge_cost(const struct cgu_profile *p,
				      uint32_t edge)
{
	return p->edge_costs + (size_t)edge * p->nevents;
}

/* Build adjacency and totals.  Call once after building;
 * adding nodes or edges afterwards needs another call. */
void cgu_profile_finish(struct cgu_profile *p);

/* Inclusive cost of a node for event ev: its self cost plus the inclusive
 * cost of its calls to other nodes (calls to itself are not added again,
 * their cost is already inside the node). */
cgu_cost cgu_node_inclusive(const struct cgu_profile *p, uint32_t node,
			    int ev);

/* Add everything of src into dst (events must have the same names, in any
 * order; nodes and edges are matched by name).  dst is left unfinished. */
int cgu_profile_merge(struct cgu_profile *dst, const struct cgu_profile *src,
		      struct cgu_error *err);

/* Rebuild p with every name passed through rename(); nodes and edges whose
 * names become equal are merged.  rename appends the new name to out. */
struct cgu_buf;
enum cgu_name_kind { CGU_NAME_FUNCTION, CGU_NAME_OBJECT, CGU_NAME_FILE };
typedef void (*cgu_rename_fn)(enum cgu_name_kind kind, const char *name,
			      struct cgu_buf *out, void *ctx);
struct cgu_profile *cgu_profile_rename(const struct cgu_profile *p,
				       cgu_rename_fn rename, void *ctx);

void cgu_profile_set_init(struct cgu_profile_set *s);
void cgu_profile_set_add(struct cgu_profile_set *s, struct cgu_profile *p,
			 const char *source);
void cgu_profile_set_release(struct cgu_profile_set *s);

#ifdef __cplusplus
}
#endif
#endif
