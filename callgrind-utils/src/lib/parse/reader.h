/* reader.h - private: the line reader of the parsers (profiles, stacks
 * files and folded stacks).
 *
 * The input is read into one buffer and split into lines in place: no
 * allocation per line.  A plain file is read with read() straight into
 * the buffer; gzip, xz, bzip2 and zstd data (told by their magic bytes,
 * in a file, on stdin or in memory) are decompressed into it, at most
 * max_input bytes of it.  The buffer has CGU_READER_PAD zeroed bytes
 * past the data, so that a number parser may load 8 bytes at any
 * position of a line.  A parser's fast path may read whole lines
 * straight from buf[start..complete) and move start itself.
 */
#ifndef CGU_READER_H
#define CGU_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <callgrind-utils/error.h>

#define CGU_READER_PAD 8

enum cgu_codec {
	CGU_CODEC_NONE,
	CGU_CODEC_GZIP,
	CGU_CODEC_XZ,
	CGU_CODEC_BZIP2,
	CGU_CODEC_ZSTD,
};

struct cgu_decoder;             /* reader.c */

struct cgu_reader {
	int fd;                 /* file or stdin, -1 for memory */
	enum cgu_codec codec;
	struct cgu_decoder *dec;
	unsigned char magic[8]; /* the first bytes of fd */
	unsigned char *inbuf;   /* compressed bytes read from fd */
	const unsigned char *in;        /* not yet used: in inbuf or mem */
	size_t in_len;
	int in_eof;             /* no more bytes from fd or mem */
	int stream_end;         /* the decoder finished a stream */
	int err_code;           /* of a failed fill: CGU_EIO or CGU_EINPUT */
	char why[200];          /* of a failed fill: "cannot read: ..." */
	uint64_t max_input;     /* most bytes of data once decompressed */
	uint64_t total;         /* bytes of data so far */
	const char *mem;
	size_t mem_len, mem_pos;
	char *buf;
	size_t cap, start, end;
	size_t complete;        /* buf[start..complete) holds whole lines */
	size_t max_line;
	char *nul;              /* first NUL byte not yet consumed, or NULL */
	int eof;
};

/* o->max_line and o->max_input (0: the defaults of parse.h; o may be
 * NULL); size_hint: the input size when known (memory), else 0. */
struct cgu_parse_opts;
void cgu_reader_init(struct cgu_reader *r, const struct cgu_parse_opts *o,
		     size_t size_hint);
void cgu_reader_release(struct cgu_reader *r);
/* Read path ("-" = stdin), plain or compressed.  0, or CGU_EIO with err
 * "PATH: cannot open: why". */
int cgu_reader_open(struct cgu_reader *r, const char *path,
		    struct cgu_error *err);
/* Read data[0..len), plain or compressed (not copied: it must outlive
 * the reader). */
void cgu_reader_mem(struct cgu_reader *r, const char *data, size_t len);
/* Read more into the buffer; 0, or -1 on a read error (see
 * cgu_reader_read_error()). */
int cgu_reader_fill(struct cgu_reader *r);
/* Fill err with why the last fill failed: "NAME: cannot read: why"
 * (CGU_EIO: a read error, data that does not decompress or is cut
 * short), or "NAME: ..." past max_input (CGU_EINPUT). */
int cgu_reader_read_error(const struct cgu_reader *r, const char *name,
			  struct cgu_error *err);
/* The first bytes of the input (up to the buffer's size, fewer at its
 * end), nothing consumed.  0, or -1 on a read error. */
int cgu_reader_peek(struct cgu_reader *r, const char **data, size_t *len);
/* The name of a codec: "gzip", "xz", ... ("plain" for none). */
const char *cgu_codec_name(enum cgu_codec c);

/* Position of the first '\n' in p[0..n), or NULL.  Lines are short
 * (tens of bytes), where a word at a time beats memchr's call overhead.
 * The lowest flagged byte of a word is exact (a false flag can only
 * follow a true one), so on little-endian it is the newline. */
static inline char *cgu_find_newline(char *p, size_t n)
{
	char *end = p + n;

	for (; p + 8 <= end; p += 8) {
		uint64_t w, x, m;

		memcpy(&w, p, 8);
		x = w ^ 0x0a0a0a0a0a0a0a0aULL;
		m = (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
		if (m) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return p + (__builtin_ctzll(m) >> 3);
#else
			break;
#endif
		}
	}
	for (; p < end; p++)
		if (*p == '\n')
			return p;
	return NULL;
}

/* Next line, NUL-terminated in place, without its newline (and \r).
 * Returns 1, 0 at end of input, -1 on a read error, -2 if too long,
 * -3 if the line holds a NUL byte. */
static inline int cgu_reader_line(struct cgu_reader *r, char **line,
				  size_t *len)
{
	for (;;) {
		char *p = r->buf + r->start;
		size_t avail = r->end - r->start;
		char *nl = cgu_find_newline(p, avail);
		size_t n;

		if (!nl && !r->eof && avail <= r->max_line) {
			if (cgu_reader_fill(r))
				return -1;
			continue;
		}
		if (!nl && avail == 0)
			return 0;
		n = nl ? (size_t)(nl - p) : avail;
		if (n > r->max_line)
			return -2;
		if (r->nul && r->nul >= p && r->nul < p + n)
			return -3;
		p[n] = '\0';
		r->start += nl ? n + 1 : n;
		if (n && p[n - 1] == '\r')
			p[--n] = '\0';
		*line = p;
		*len = n;
		return 1;
	}
}

/* The parsers, reading from an open reader (they do not release it). */
struct cgu_profile_set;
struct cgu_cct;
struct cgu_folded;
int cgu_parse_reader(struct cgu_reader *r, const char *name,
		     const struct cgu_parse_opts *opts,
		     struct cgu_profile_set *set, struct cgu_error *err);
int cgu_cct_parse_reader(struct cgu_cct *c, struct cgu_reader *r,
			 const char *name, const struct cgu_parse_opts *o,
			 struct cgu_error *err);
int cgu_folded_parse_reader(struct cgu_folded *f, struct cgu_reader *r,
			    const char *name, struct cgu_error *err);

#endif
