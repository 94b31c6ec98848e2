/* model.c - building and combining profiles, see model.h. */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/model.h>
#include "hash.h"

struct name_entry {
	const char *s;
	size_t len;
};

struct cgu_index {
	struct cgu_itab names, nodes, edges;
	struct name_entry *name_v;
	size_t nnames, name_cap;
	uint32_t last_edge;    /* cgu_profile_edge() hit cache */
};

struct name_key {
	const char *s;
	size_t len;
};

struct node_key {
	const char *function, *object, *file;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

/* Grow *v (elements of size) so it holds at least need elements. */
static void grow_array(void **v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	*v = xrealloc(*v, c * size);
	*cap = c;
}

struct cgu_profile *cgu_profile_new(void)
{
	struct cgu_profile *p = calloc(1, sizeof(*p));
	struct cgu_index *ix = calloc(1, sizeof(*ix));

	if (!p || !ix)
		abort();
	cgu_itab_init(&ix->names);
	cgu_itab_init(&ix->nodes);
	cgu_itab_init(&ix->edges);
	p->index = ix;
	return p;
}

void cgu_profile_free(struct cgu_profile *p)
{
	if (!p)
		return;
	cgu_itab_release(&p->index->names);
	cgu_itab_release(&p->index->nodes);
	cgu_itab_release(&p->index->edges);
	free(p->index->name_v);
	free(p->index);
	free(p->nodes);
	free(p->self_costs);
	free(p->edges);
	free(p->edge_costs);
	free(p->out_start);
	free(p->out_edges);
	free(p->in_start);
	free(p->in_edges);
	free(p->headers);
	cgu_arena_release(&p->arena);
	free(p);
}

int cgu_profile_set_events(struct cgu_profile *p, const char *const *names,
			   size_t n, struct cgu_error *err)
{
	size_t i;

	if (n == 0 || n > CGU_MAX_EVENTS)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0,
				     "expected 1 to %d events, got %zu",
				     CGU_MAX_EVENTS, n);
	if (p->nevents || p->nnodes)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0,
				     "events are already set");
	for (i = 0; i < n; i++)
		p->events[i] = cgu_profile_intern(p, names[i], strlen(names[i]));
	p->nevents = n;
	return CGU_OK;
}

int cgu_profile_event(const struct cgu_profile *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nevents; i++)
		if (!strcmp(p->events[i], name))
			return (int)i;
	return -1;
}

static int name_eq(const void *ctx, uint32_t index, const void *key)
{
	const struct cgu_index *ix = ctx;
	const struct name_key *k = key;

	return ix->name_v[index].len == k->len &&
	       !memcmp(ix->name_v[index].s, k->s, k->len);
}

const char *cgu_profile_intern(struct cgu_profile *p, const char *s,
			       size_t len)
{
	struct cgu_index *ix = p->index;
	struct name_key key = { s, len };
	uint32_t h = cgu_hash_bytes(s, len);
	uint32_t i = cgu_itab_find(&ix->names, h, name_eq, ix, &key);

	if (i != UINT32_MAX)
		return ix->name_v[i].s;
	grow_array((void **)&ix->name_v, &ix->name_cap, ix->nnames + 1,
		   sizeof(*ix->name_v));
	ix->name_v[ix->nnames].s = cgu_arena_strndup(&p->arena, s, len);
	ix->name_v[ix->nnames].len = len;
	cgu_itab_insert(&ix->names, h, (uint32_t)ix->nnames);
	return ix->name_v[ix->nnames++].s;
}

static int node_eq(const void *ctx, uint32_t index, const void *key)
{
	const struct cgu_node *n = (const struct cgu_node *)ctx + index;
	const struct node_key *k = key;

	return n->function == k->function && n->object == k->object &&
	       n->file == k->file;
}

static uint32_t node_hash(const struct node_key *k)
{
	uint64_t h = (uintptr_t)k->function;

	h = h * 31 + (uintptr_t)k->object;
	h = h * 31 + (uintptr_t)k->file;
	return cgu_hash_u64(h);
}

static const char *intern_str(struct cgu_profile *p, const char *s)
{
	return cgu_profile_intern(p, s ? s : "", s ? strlen(s) : 0);
}

uint32_t cgu_profile_node_interned(struct cgu_profile *p,
				   const char *function, const char *object,
				   const char *file)
{
	struct node_key k = { function, object, file };
	uint32_t h = node_hash(&k), i;
	size_t cap = p->node_cap;

	i = cgu_itab_find(&p->index->nodes, h, node_eq, p->nodes, &k);
	if (i != UINT32_MAX)
		return i;
	grow_array((void **)&p->nodes, &p->node_cap, p->nnodes + 1,
		   sizeof(*p->nodes));
	if (p->node_cap != cap)
		p->self_costs = xrealloc(p->self_costs, p->node_cap *
					 (p->nevents ? p->nevents : 1) *
					 sizeof(cgu_cost));
	i = (uint32_t)p->nnodes++;
	p->nodes[i].function = function;
	p->nodes[i].object = object;
	p->nodes[i].file = file;
	memset(cgu_self(p, i), 0, p->nevents * sizeof(cgu_cost));
	cgu_itab_insert(&p->index->nodes, h, i);
	return i;
}

uint32_t cgu_profile_node(struct cgu_profile *p, const char *function,
			  const char *object, const char *file)
{
	return cgu_profile_node_interned(p, intern_str(p, function),
					 intern_str(p, object),
					 intern_str(p, file));
}

static int edge_eq(const void *ctx, uint32_t index, const void *key)
{
	const struct cgu_edge *e = (const struct cgu_edge *)ctx + index;
	const uint64_t *k = key;

	return (((uint64_t)e->caller << 32) | e->callee) == *k;
}

uint32_t cgu_profile_edge(struct cgu_profile *p, uint32_t caller,
			  uint32_t callee)
{
	uint64_t k = ((uint64_t)caller << 32) | callee;
	uint32_t h, i;
	size_t cap = p->edge_cap;

	i = p->index->last_edge;
	if (i < p->nedges && p->edges[i].caller == caller &&
	    p->edges[i].callee == callee)
		return i;
	h = cgu_hash_u64(k);
	i = cgu_itab_find(&p->index->edges, h, edge_eq, p->edges, &k);
	if (i != UINT32_MAX)
		return p->index->last_edge = i;
	grow_array((void **)&p->edges, &p->edge_cap, p->nedges + 1,
		   sizeof(*p->edges));
	if (p->edge_cap != cap)
		p->edge_costs = xrealloc(p->edge_costs, p->edge_cap *
					 (p->nevents ? p->nevents : 1) *
					 sizeof(cgu_cost));
	i = (uint32_t)p->nedges++;
	p->edges[i].caller = caller;
	p->edges[i].callee = callee;
	p->edges[i].calls = 0;
	memset(cgu_edge_cost(p, i), 0, p->nevents * sizeof(cgu_cost));
	cgu_itab_insert(&p->index->edges, h, i);
	return p->index->last_edge = i;
}

void cgu_profile_add_header(struct cgu_profile *p, const char *key,
			    const char *value)
{
	grow_array((void **)&p->headers, &p->header_cap, p->nheaders + 1,
		   sizeof(*p->headers));
	p->headers[p->nheaders].key = cgu_arena_strdup(&p->arena, key);
	p->headers[p->nheaders].value = cgu_arena_strdup(&p->arena, value);
	p->nheaders++;
}

/* Group edge indices by key node (caller or callee): counting sort. */
static void build_adjacency(const struct cgu_profile *p, int by_callee,
			    uint32_t **start_out, uint32_t **edges_out)
{
	uint32_t *start = xrealloc(*start_out, (p->nnodes + 2) * sizeof(*start));
	uint32_t *list = xrealloc(*edges_out, p->nedges * sizeof(*list));
	size_t i;

	memset(start, 0, (p->nnodes + 2) * sizeof(*start));
	for (i = 0; i < p->nedges; i++)
		start[(by_callee ? p->edges[i].callee : p->edges[i].caller) + 2]++;
	for (i = 2; i < p->nnodes + 2; i++)
		start[i] += start[i - 1];
	for (i = 0; i < p->nedges; i++) {
		uint32_t n = by_callee ? p->edges[i].callee : p->edges[i].caller;
		list[start[n + 1]++] = (uint32_t)i;
	}
	*start_out = start;
	*edges_out = list;
}

void cgu_profile_finish(struct cgu_profile *p)
{
	size_t i, e;

	build_adjacency(p, 0, &p->out_start, &p->out_edges);
	build_adjacency(p, 1, &p->in_start, &p->in_edges);
	memset(p->totals, 0, sizeof(p->totals));
	for (i = 0; i < p->nnodes; i++)
		for (e = 0; e < p->nevents; e++)
			p->totals[e] += cgu_self(p, (uint32_t)i)[e];
}

cgu_cost cgu_node_inclusive(const struct cgu_profile *p, uint32_t node, int ev)
{
	cgu_cost sum = cgu_self(p, node)[ev];
	uint32_t k;

	for (k = p->out_start[node]; k < p->out_start[node + 1]; k++) {
		uint32_t j = p->out_edges[k];

		if (p->edges[j].callee != node)
			sum += cgu_edge_cost(p, j)[ev];
	}
	return sum;
}

static void add_costs(cgu_cost *dst, const cgu_cost *src, const int *map,
		      size_t n)
{
	size_t e;

	for (e = 0; e < n; e++)
		dst[map[e]] += src[e];
}

static int map_events(const struct cgu_profile *dst,
		      const struct cgu_profile *src, int *map,
		      struct cgu_error *err)
{
	size_t e;

	if (dst->nevents != src->nevents)
		return cgu_error_set(err, CGU_EINPUT, NULL, 0,
				     "cannot merge profiles with %zu and %zu "
				     "events", dst->nevents, src->nevents);
	for (e = 0; e < src->nevents; e++) {
		map[e] = cgu_profile_event(dst, src->events[e]);
		if (map[e] < 0)
			return cgu_error_set(err, CGU_EINPUT, NULL, 0,
					     "cannot merge: event %s missing "
					     "in the first profile",
					     src->events[e]);
	}
	return CGU_OK;
}

/* Copy src into dst, naming every node through nodemap (src -> dst). */
static void copy_graph(struct cgu_profile *dst, const struct cgu_profile *src,
		       const uint32_t *nodemap, const int *evmap)
{
	size_t i;

	for (i = 0; i < src->nnodes; i++)
		add_costs(cgu_self(dst, nodemap[i]), cgu_self(src, (uint32_t)i),
			  evmap, src->nevents);
	for (i = 0; i < src->nedges; i++) {
		const struct cgu_edge *se = &src->edges[i];
		uint32_t j = cgu_profile_edge(dst, nodemap[se->caller],
					      nodemap[se->callee]);

		dst->edges[j].calls += se->calls;
		add_costs(cgu_edge_cost(dst, j), cgu_edge_cost(src, (uint32_t)i),
			  evmap, src->nevents);
	}
	dst->njumps += src->njumps;
}

int cgu_profile_merge(struct cgu_profile *dst, const struct cgu_profile *src,
		      struct cgu_error *err)
{
	int evmap[CGU_MAX_EVENTS];
	uint32_t *nodemap;
	size_t i;
	int rc;

	if (!dst->nevents && !dst->nnodes) {
		rc = cgu_profile_set_events(dst, src->events, src->nevents, err);
		if (rc)
			return rc;
	}
	rc = map_events(dst, src, evmap, err);
	if (rc)
		return rc;
	nodemap = xrealloc(NULL, src->nnodes * sizeof(*nodemap));
	for (i = 0; i < src->nnodes; i++)
		nodemap[i] = cgu_profile_node(dst, src->nodes[i].function,
					      src->nodes[i].object,
					      src->nodes[i].file);
	copy_graph(dst, src, nodemap, evmap);
	free(nodemap);
	return CGU_OK;
}

static const char *copy_opt(struct cgu_profile *dst, const char *s)
{
	return s ? cgu_arena_strdup(&dst->arena, s) : NULL;
}

static void copy_header(struct cgu_profile *dst, const struct cgu_profile *src)
{
	size_t i;

	dst->creator = copy_opt(dst, src->creator);
	dst->cmd = copy_opt(dst, src->cmd);
	dst->pid = copy_opt(dst, src->pid);
	dst->thread = copy_opt(dst, src->thread);
	dst->part = copy_opt(dst, src->part);
	dst->positions = copy_opt(dst, src->positions);
	for (i = 0; i < src->nevents; i++)
		dst->event_desc[i] = copy_opt(dst, src->event_desc[i]);
	for (i = 0; i < src->nheaders; i++)
		cgu_profile_add_header(dst, src->headers[i].key,
				       src->headers[i].value);
}

static const char *renamed(enum cgu_name_kind kind, const char *name,
			   cgu_rename_fn rename, void *ctx,
			   struct cgu_buf *tmp)
{
	cgu_buf_reset(tmp);
	rename(kind, name, tmp, ctx);
	return tmp->data;
}

struct cgu_profile *cgu_profile_rename(const struct cgu_profile *p,
				       cgu_rename_fn rename, void *ctx)
{
	struct cgu_profile *q = cgu_profile_new();
	struct cgu_buf fn = CGU_BUF_INIT, ob = CGU_BUF_INIT, fl = CGU_BUF_INIT;
	uint32_t *nodemap = xrealloc(NULL, p->nnodes * sizeof(*nodemap));
	int evmap[CGU_MAX_EVENTS];
	size_t i;

	if (p->nevents)
		cgu_profile_set_events(q, p->events, p->nevents, NULL);
	for (i = 0; i < p->nevents; i++)
		evmap[i] = (int)i;
	copy_header(q, p);
	for (i = 0; i < p->nnodes; i++) {
		const struct cgu_node *n = &p->nodes[i];

		nodemap[i] = cgu_profile_node(q,
			renamed(CGU_NAME_FUNCTION, n->function, rename, ctx, &fn),
			renamed(CGU_NAME_OBJECT, n->object, rename, ctx, &ob),
			renamed(CGU_NAME_FILE, n->file, rename, ctx, &fl));
	}
	copy_graph(q, p, nodemap, evmap);
	free(nodemap);
	cgu_buf_release(&fn);
	cgu_buf_release(&ob);
	cgu_buf_release(&fl);
	cgu_profile_finish(q);
	return q;
}

void cgu_profile_set_init(struct cgu_profile_set *s)
{
	s->n = 0;
	s->v = NULL;
	s->source = NULL;
}

void cgu_profile_set_add(struct cgu_profile_set *s, struct cgu_profile *p,
			 const char *source)
{
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->source = xrealloc(s->source, (s->n + 1) * sizeof(*s->source));
	s->v[s->n] = p;
	s->source[s->n] = cgu_arena_strdup(&p->arena, source ? source : "");
	s->n++;
}

void cgu_profile_set_release(struct cgu_profile_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		cgu_profile_free(s->v[i]);
	free(s->v);
	free(s->source);
	cgu_profile_set_init(s);
}
