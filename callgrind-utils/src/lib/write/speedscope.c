/* speedscope.c - folded stacks as a speedscope file.
 *
 * The shape (see speedscope's src/lib/file-format-spec.ts):
 *   { "$schema": ..., "shared": { "frames": [ {name, file?} ... ] },
 *     "profiles": [ { "type": "sampled", "name", "unit": "none",
 *                     "startValue": 0, "endValue": total,
 *                     "samples": [[frame index, root first] ...],
 *                     "weights": [count ...] } ... ],
 *     "name", "activeProfileIndex": 0, "exporter" }
 * Frames are interned over all profiles, so one function is one frame.
 */
#include <stdlib.h>
#include <string.h>

#include <callgrind-utils/buf.h>
#include <callgrind-utils/callgrind-utils.h>
#include <callgrind-utils/speedscope.h>

static void add_frame(struct cgu_buf *b, const struct cgu_folded_frame *fr)
{
	const char *file = fr->file ? fr->file : fr->object;
	cgu_buf_adds(b, "{\"name\":");
	cgu_buf_add_json(b, fr->name);
	if (file) {
		cgu_buf_adds(b, ",\"file\":");
		cgu_buf_add_json(b, file);
	}
	cgu_buf_addch(b, '}');
}

static void add_samples(struct cgu_buf *b, const struct cgu_folded *f,
			const uint32_t *map)
{
	const char *sep = "";
	cgu_buf_adds(b, "\"samples\":[");
	for (size_t i = 0; i < f->nstacks; i++) {
		const struct cgu_folded_stack *s = &f->stacks[i];
		const uint32_t *ids = cgu_folded_stack_ids(f, s);
		if (s->count == 0)
			continue;
		cgu_buf_adds(b, sep);
		cgu_buf_addch(b, '[');
		for (size_t k = 0; k < s->depth; k++) {
			if (k)
				cgu_buf_addch(b, ',');
			cgu_buf_addu64(b, map[ids[k]]);
		}
		cgu_buf_addch(b, ']');
		sep = ",";
	}
	cgu_buf_adds(b, "],\"weights\":[");
	sep = "";
	for (size_t i = 0; i < f->nstacks; i++) {
		if (f->stacks[i].count == 0)
			continue;
		cgu_buf_adds(b, sep);
		cgu_buf_addu64(b, f->stacks[i].count);
		sep = ",";
	}
	cgu_buf_adds(b, "]");
}

static void add_profile(struct cgu_buf *b, const struct cgu_speedscope_profile *p,
			const uint32_t *map)
{
	cgu_buf_adds(b, "{\"type\":\"sampled\",\"name\":");
	cgu_buf_add_json(b, p->name);
	cgu_buf_adds(b, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":");
	cgu_buf_addu64(b, p->stacks->total);
	cgu_buf_addch(b, ',');
	add_samples(b, p->stacks, map);
	cgu_buf_addch(b, '}');
}

int cgu_speedscope_write(const struct cgu_speedscope_profile *profiles, size_t n,
			 const char *name, FILE *out)
{
	struct cgu_folded shared;
	struct cgu_buf body = CGU_BUF_INIT, head = CGU_BUF_INIT;
	int rc = 0;
	cgu_folded_init(&shared);
	cgu_buf_adds(&body, "\"profiles\":[");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		uint32_t *map = cgu_folded_share_frames(&shared, profiles[i].stacks);
		if (!map) {
			rc = CGU_EIO;
			break;
		}
		if (i)
			cgu_buf_addch(&body, ',');
		add_profile(&body, &profiles[i], map);
		free(map);
	}
	cgu_buf_adds(&body, "],\"name\":");
	cgu_buf_add_json(&body, name);
	cgu_buf_adds(&body, ",\"activeProfileIndex\":0,\"exporter\":\"callgrind-utils "
		     CGU_VERSION_STRING "\"}\n");
	cgu_buf_adds(&head, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		     "\"shared\":{\"frames\":[");
	for (size_t i = 0; i < shared.nframes; i++) {
		if (i)
			cgu_buf_addch(&head, ',');
		add_frame(&head, &shared.frames[i]);
	}
	cgu_buf_adds(&head, "]},");
	if (rc == 0 && (cgu_buf_write(&head, out) < 0 || cgu_buf_write(&body, out) < 0))
		rc = CGU_EIO;
	cgu_buf_release(&head);
	cgu_buf_release(&body);
	cgu_folded_release(&shared);
	return rc;
}
