/* json.c - the whole model as one JSON document.
 *
 * {"creator":..,"cmd":..,"pid":..,"part":..,"thread":..,"positions":..,
 *  "events":["Ir",..],"event_desc":[..|null],"headers":[[key,value],..],
 *  "totals":[..],
 *  "nodes":[{"id":0,"function":..,"object":..,"file":..,"self":[..]}],
 *  "edges":[{"caller":0,"callee":1,"calls":N,"inclusive":[..]}]}
 * Cost arrays follow the order of "events".  The first field, "stacks",
 * says whether the document holds exact stacks: "none", or "exact" and
 * then, after "edges", the calling-context tree of a stacks file:
 *  "cct":{"source":..,
 *         "frames":[{"id":0,"function":..,"object":..,"file":..}],
 *         "nodes":[{"id":0,"parent":null|id,"thread":1,"frame":0,
 *                   "calls":N,"self":[..]}],
 *         "totals":[..]}
 * Nodes are numbered from 0 in file order, a parent before its children;
 * parent null is the thread's root.
 */
#include <callgrind-utils/cct.h>
#include <callgrind-utils/output.h>

static void add_costs(struct cgu_buf *b, const cgu_cost *c, size_t n)
{
	size_t i;

	cgu_buf_addch(b, '[');
	for (i = 0; i < n; i++) {
		if (i)
			cgu_buf_addch(b, ',');
		cgu_buf_addu64(b, c[i]);
	}
	cgu_buf_addch(b, ']');
}

static void add_field(struct cgu_buf *b, const char *key, const char *value)
{
	cgu_buf_addf(b, "\"%s\":", key);
	if (value)
		cgu_buf_add_json(b, value);
	else
		cgu_buf_adds(b, "null");
	cgu_buf_addch(b, ',');
}

static void add_header(struct cgu_buf *b, const struct cgu_profile *p)
{
	size_t i;

	add_field(b, "creator", p->creator);
	add_field(b, "cmd", p->cmd);
	add_field(b, "pid", p->pid);
	add_field(b, "part", p->part);
	add_field(b, "thread", p->thread);
	add_field(b, "positions", p->positions ? p->positions : "line");
	cgu_buf_adds(b, "\"events\":[");
	for (i = 0; i < p->nevents; i++) {
		if (i)
			cgu_buf_addch(b, ',');
		cgu_buf_add_json(b, p->events[i]);
	}
	cgu_buf_adds(b, "],\n\"event_desc\":[");
	for (i = 0; i < p->nevents; i++) {
		if (i)
			cgu_buf_addch(b, ',');
		if (p->event_desc[i])
			cgu_buf_add_json(b, p->event_desc[i]);
		else
			cgu_buf_adds(b, "null");
	}
	cgu_buf_adds(b, "],\n\"headers\":[");
	for (i = 0; i < p->nheaders; i++) {
		cgu_buf_adds(b, i ? ",[" : "[");
		cgu_buf_add_json(b, p->headers[i].key);
		cgu_buf_addch(b, ',');
		cgu_buf_add_json(b, p->headers[i].value);
		cgu_buf_addch(b, ']');
	}
	cgu_buf_adds(b, "],\n\"totals\":");
	add_costs(b, p->totals, p->nevents);
}

static void add_node(struct cgu_buf *b, const struct cgu_profile *p, size_t i)
{
	const struct cgu_node *n = &p->nodes[i];

	cgu_buf_addf(b, "%s\n{\"id\":%zu,", i ? "," : "", i);
	add_field(b, "function", n->function);
	add_field(b, "object", n->object);
	add_field(b, "file", n->file);
	cgu_buf_adds(b, "\"self\":");
	add_costs(b, cgu_self(p, (uint32_t)i), p->nevents);
	cgu_buf_addch(b, '}');
}

static void add_edge(struct cgu_buf *b, const struct cgu_profile *p, size_t i)
{
	const struct cgu_edge *e = &p->edges[i];

	cgu_buf_addf(b, "%s\n{\"caller\":%u,\"callee\":%u,\"calls\":%llu,"
		     "\"inclusive\":", i ? "," : "", e->caller, e->callee,
		     (unsigned long long)e->calls);
	add_costs(b, cgu_edge_cost(p, (uint32_t)i), p->nevents);
	cgu_buf_addch(b, '}');
}

/* Flush the buffer when it grows large, so output stays streaming. */
static int flush_big(struct cgu_buf *b, FILE *out)
{
	int rc = 0;

	if (b->len >= 1u << 16) {
		rc = cgu_buf_write(b, out);
		cgu_buf_reset(b);
	}
	return rc;
}

/* The cct's costs of node (or totals) in the profile's event order. */
static void add_cct_costs(struct cgu_buf *b, const cgu_cost *c,
			  const int *evmap, size_t n)
{
	size_t i;

	cgu_buf_addch(b, '[');
	for (i = 0; i < n; i++) {
		if (i)
			cgu_buf_addch(b, ',');
		cgu_buf_addu64(b, evmap[i] < 0 ? 0 : c[evmap[i]]);
	}
	cgu_buf_addch(b, ']');
}

static int add_cct(struct cgu_buf *b, const struct cgu_profile *p,
		   const struct cgu_cct *c, size_t part, FILE *out)
{
	int evmap[CGU_MAX_EVENTS];
	size_t i, first, end;
	int rc = 0;

	cgu_cct_part_nodes(c, part, &first, &end);
	for (i = 0; i < p->nevents; i++)
		evmap[i] = cgu_cct_event(c, p->events[i]);
	cgu_buf_adds(b, ",\n\"cct\":{");
	add_field(b, "source", c->nparts ? c->parts[part < c->nparts ? part : 0].source
					 : NULL);
	cgu_buf_adds(b, "\n\"frames\":[");
	for (i = 0; i < c->nframes; i++) {
		cgu_buf_addf(b, "%s\n{\"id\":%zu,", i ? "," : "", i);
		add_field(b, "function", c->frames[i].function);
		add_field(b, "object", c->frames[i].object);
		cgu_buf_adds(b, "\"file\":");
		cgu_buf_add_json(b, c->frames[i].file);
		cgu_buf_addch(b, '}');
	}
	cgu_buf_adds(b, "],\n\"nodes\":[");
	for (i = first; i < end && !rc; i++) {
		const struct cgu_cct_node *n = &c->nodes[i];

		cgu_buf_addf(b, "%s\n{\"id\":%zu,\"parent\":", i > first ? "," : "",
			     i - first);
		if (n->parent == CGU_CCT_ROOT)
			cgu_buf_adds(b, "null");
		else
			cgu_buf_addu64(b, n->parent - first);
		cgu_buf_addf(b, ",\"thread\":%u,\"frame\":%u,\"calls\":%llu,"
			     "\"self\":", n->thread, n->frame,
			     (unsigned long long)n->calls);
		add_cct_costs(b, cgu_cct_self(c, (uint32_t)i), evmap, p->nevents);
		cgu_buf_addch(b, '}');
		rc = flush_big(b, out);
	}
	cgu_buf_adds(b, "],\n\"totals\":");
	add_cct_costs(b, cgu_cct_part_totals(c, part), evmap, p->nevents);
	cgu_buf_addch(b, '}');
	return rc;
}

int cgu_json_write(const struct cgu_profile *p, FILE *out,
		   struct cgu_error *err)
{
	return cgu_json_write_cct(p, NULL, CGU_CCT_ALL_PARTS, out, err);
}

int cgu_json_write_cct(const struct cgu_profile *p, const struct cgu_cct *c,
		       size_t part, FILE *out, struct cgu_error *err)
{
	struct cgu_buf b = CGU_BUF_INIT;
	size_t i;
	int rc = 0;

	cgu_buf_addf(&b, "{\"stacks\":\"%s\",", c ? "exact" : "none");
	add_header(&b, p);
	cgu_buf_adds(&b, ",\n\"nodes\":[");
	for (i = 0; i < p->nnodes && !rc; i++) {
		add_node(&b, p, i);
		rc = flush_big(&b, out);
	}
	cgu_buf_adds(&b, "],\n\"edges\":[");
	for (i = 0; i < p->nedges && !rc; i++) {
		add_edge(&b, p, i);
		rc = flush_big(&b, out);
	}
	cgu_buf_addch(&b, ']');
	if (c && !rc)
		rc = add_cct(&b, p, c, part, out);
	cgu_buf_adds(&b, "}\n");
	if (!rc)
		rc = cgu_buf_write(&b, out);
	cgu_buf_release(&b);
	if (rc)
		return cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	return CGU_OK;
}
