/* names.c - how nodes are named in text outputs. */
#include <callgrind-utils/output.h>

void cgu_frame_name(const struct cgu_node *node, enum cgu_name_style style,
		    struct cgu_buf *out)
{
	if (style != CGU_NAMES_FUNCTION) {
		cgu_buf_adds(out, node->file[0] ? node->file : "???");
		cgu_buf_addch(out, ':');
	}
	cgu_buf_adds(out, node->function);
	if (style == CGU_NAMES_FULL && node->object[0])
		cgu_buf_addf(out, " [%s]", node->object);
}

void cgu_node_name(const struct cgu_profile *p, uint32_t n,
		   enum cgu_name_style style, struct cgu_buf *out)
{
	cgu_frame_name(&p->nodes[n], style, out);
}
