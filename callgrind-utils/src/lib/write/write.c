/* write.c - write a profile back in Callgrind format.
 *
 * One block per node (ob=, fl=, fn=, a self cost line at position 0, then
 * one cob=/cfi=/cfn=/calls= pair per outgoing edge), with name
 * compression in every id space and "summary:"/"totals:" lines.  Parsing
 * the output gives the same model back.
 */
#include <stdlib.h>
#include <callgrind-utils/output.h>
#include "hash.h"

struct name_ids {
	struct cgu_itab tab;
	const char **v;
	size_t n, cap;
};

static int ptr_eq(const void *ctx, uint32_t index, const void *key)
{
	const struct name_ids *ids = ctx;

	return ids->v[index] == key;
}

/* Append "key=(id) name" the first time, "key=(id)" later. */
static void add_name(struct cgu_buf *b, struct name_ids *ids, const char *key,
		     const char *name)
{
	uint32_t h = cgu_hash_u64((uintptr_t)name);
	uint32_t i;

	if (!name[0]) {         /* "(id) " would read as a reference */
		cgu_buf_addf(b, "%s=\n", key);
		return;
	}
	i = cgu_itab_find(&ids->tab, h, ptr_eq, ids, name);

	if (i != UINT32_MAX) {
		cgu_buf_addf(b, "%s=(%u)\n", key, i + 1);
		return;
	}
	if (ids->n == ids->cap) {
		ids->cap = ids->cap ? ids->cap * 2 : 64;
		ids->v = realloc(ids->v, ids->cap * sizeof(*ids->v));
		if (!ids->v)
			abort();
	}
	ids->v[ids->n] = name;
	cgu_itab_insert(&ids->tab, h, (uint32_t)ids->n);
	ids->n++;
	cgu_buf_addf(b, "%s=(%zu) %s\n", key, ids->n, name);
}

static void add_cost_line(struct cgu_buf *b, const cgu_cost *c, size_t n)
{
	size_t i;

	cgu_buf_addch(b, '0');
	for (i = 0; i < n; i++) {
		cgu_buf_addch(b, ' ');
		cgu_buf_addu64(b, c[i]);
	}
	cgu_buf_addch(b, '\n');
}

static void add_event_line(struct cgu_buf *b, const char *key,
			   const struct cgu_profile *p)
{
	size_t i;

	cgu_buf_adds(b, key);
	for (i = 0; i < p->nevents; i++) {
		cgu_buf_addch(b, ' ');
		if (key[0] == 'e')
			cgu_buf_adds(b, p->events[i]);
		else
			cgu_buf_addu64(b, p->totals[i]);
	}
	cgu_buf_addch(b, '\n');
}

static void add_header(struct cgu_buf *b, const struct cgu_profile *p)
{
	size_t i;

	cgu_buf_adds(b, "# callgrind format\nversion: 1\n");
	cgu_buf_addf(b, "creator: %s\n", p->creator ? p->creator
		     : "callgrind-utils");
	if (p->pid)
		cgu_buf_addf(b, "pid: %s\n", p->pid);
	if (p->cmd)
		cgu_buf_addf(b, "cmd: %s\n", p->cmd);
	if (p->part)
		cgu_buf_addf(b, "part: %s\n", p->part);
	if (p->thread)
		cgu_buf_addf(b, "thread: %s\n", p->thread);
	for (i = 0; i < p->nheaders; i++)
		cgu_buf_addf(b, "%s: %s\n", p->headers[i].key,
			     p->headers[i].value);
	cgu_buf_adds(b, "positions: line\n");
	add_event_line(b, "events:", p);
	add_event_line(b, "summary:", p);
	cgu_buf_addch(b, '\n');
}

struct writer {
	struct name_ids ob, fl, fn;
};

static void add_node(struct cgu_buf *b, struct writer *w,
		     const struct cgu_profile *p, uint32_t n)
{
	const struct cgu_node *node = &p->nodes[n];
	uint32_t k;

	add_name(b, &w->ob, "ob", node->object);
	add_name(b, &w->fl, "fl", node->file);
	add_name(b, &w->fn, "fn", node->function);
	add_cost_line(b, cgu_self(p, n), p->nevents);
	for (k = p->out_start[n]; k < p->out_start[n + 1]; k++) {
		uint32_t j = p->out_edges[k];
		const struct cgu_node *callee = &p->nodes[p->edges[j].callee];

		add_name(b, &w->ob, "cob", callee->object);
		add_name(b, &w->fl, "cfi", callee->file);
		add_name(b, &w->fn, "cfn", callee->function);
		cgu_buf_addf(b, "calls=%llu 0\n",
			     (unsigned long long)p->edges[j].calls);
		add_cost_line(b, cgu_edge_cost(p, j), p->nevents);
	}
	cgu_buf_addch(b, '\n');
}

static void release_ids(struct name_ids *ids)
{
	cgu_itab_release(&ids->tab);
	free(ids->v);
}

int cgu_callgrind_write(const struct cgu_profile *p, FILE *out,
			struct cgu_error *err)
{
	struct cgu_buf b = CGU_BUF_INIT;
	struct writer w = { { { 0 }, 0, 0, 0 }, { { 0 }, 0, 0, 0 },
			    { { 0 }, 0, 0, 0 } };
	uint32_t n;
	int rc = 0;

	cgu_itab_init(&w.ob.tab);
	cgu_itab_init(&w.fl.tab);
	cgu_itab_init(&w.fn.tab);
	add_header(&b, p);
	for (n = 0; n < p->nnodes && !rc; n++) {
		add_node(&b, &w, p, n);
		if (b.len > 1u << 16) {
			rc = cgu_buf_write(&b, out);
			cgu_buf_reset(&b);
		}
	}
	add_event_line(&b, "totals:", p);
	if (!rc)
		rc = cgu_buf_write(&b, out);
	cgu_buf_release(&b);
	release_ids(&w.ob);
	release_ids(&w.fl);
	release_ids(&w.fn);
	return rc ? cgu_error_set(err, CGU_EIO, NULL, 0, "write error") : 0;
}
