/* reader.c - the line reader of the parsers, see reader.h.
 *
 * The first bytes of a file, of stdin or of a buffer tell its format:
 * gzip (1f 8b), xz (fd '7zXZ' 00), bzip2 ('BZh' 1-9) or zstd (28 b5 2f
 * fd); anything else is plain text.  Compressed data is decoded chunk by
 * chunk into the line buffer; streams may follow each other (gzip
 * members, bzip2 streams, zstd frames, xz streams), as their tools write
 * them for concatenated files.  Input that ends inside a stream is cut
 * short: an error, never a quiet end of file.
 */
#define _GNU_SOURCE
#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <callgrind-utils/parse.h>
#include "reader.h"

/* Bytes a read asks for: small enough for the data to be still in the
 * cache when it is parsed, large enough for few calls. */
#define READ_CHUNK (128u * 1024u)
/* The magic bytes looked at; a shorter input is plain text. */
#define MAGIC_LEN 6
/* xz's dictionary is allocated as the stream header asks: xz -9 needs
 * 65 MiB, a forged header is refused past this. */
#define XZ_MEMLIMIT (1ull << 30)

struct cgu_decoder {
	union {
		z_stream z;
		lzma_stream x;
		bz_stream b;
		ZSTD_DStream *zs;
	} u;
	int live;               /* a stream is set up (to be ended) */
};

const char *cgu_codec_name(enum cgu_codec c)
{
	switch (c) {
	case CGU_CODEC_GZIP: return "gzip";
	case CGU_CODEC_XZ: return "xz";
	case CGU_CODEC_BZIP2: return "bzip2";
	case CGU_CODEC_ZSTD: return "zstd";
	default: return "plain";
	}
}

static enum cgu_codec sniff(const unsigned char *m, size_t n)
{
	if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		return CGU_CODEC_GZIP;
	if (n >= 6 && !memcmp(m, "\xfd" "7zXZ\0", 6))
		return CGU_CODEC_XZ;
	if (n >= 4 && !memcmp(m, "BZh", 3) && m[3] >= '1' && m[3] <= '9')
		return CGU_CODEC_BZIP2;
	if (n >= 4 && !memcmp(m, "\x28\xb5\x2f\xfd", 4))
		return CGU_CODEC_ZSTD;
	return CGU_CODEC_NONE;
}

static int fail(struct cgu_reader *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct cgu_reader *r, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	r->err_code = code;
	return -1;
}

static int cut_short(struct cgu_reader *r)
{
	return fail(r, CGU_EIO, "cannot read: %s data cut short (truncated "
		    "file?)", cgu_codec_name(r->codec));
}

/* ------------------------------------------------------ raw bytes */

static ssize_t read_fd(struct cgu_reader *r, void *to, size_t n)
{
	ssize_t got;

	do
		got = read(r->fd, to, n);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		fail(r, CGU_EIO, "cannot read: %s", strerror(errno));
	return got;
}

/* Make r->in hold some input unless it is at its end; -1 on error. */
static int more_input(struct cgu_reader *r)
{
	ssize_t got;

	if (r->in_len || r->in_eof)
		return 0;
	if (r->fd < 0) {
		r->in = (const unsigned char *)r->mem + r->mem_pos;
		r->in_len = r->mem_len - r->mem_pos;
		r->mem_pos = r->mem_len;
		r->in_eof = r->in_len == 0;
		return 0;
	}
	got = read_fd(r, r->inbuf, READ_CHUNK);
	if (got < 0)
		return -1;
	r->in = r->inbuf;
	r->in_len = (size_t)got;
	r->in_eof = got == 0;
	return 0;
}

/* ------------------------------------------------------ decoders */

static int dec_start(struct cgu_reader *r)
{
	struct cgu_decoder *d = r->dec;
	int ok;

	memset(&d->u, 0, sizeof(d->u));
	switch (r->codec) {
	case CGU_CODEC_GZIP:
		ok = inflateInit2(&d->u.z, 15 + 16) == Z_OK;
		break;
	case CGU_CODEC_XZ:
		ok = lzma_stream_decoder(&d->u.x, XZ_MEMLIMIT,
					 LZMA_CONCATENATED) == LZMA_OK;
		break;
	case CGU_CODEC_BZIP2:
		ok = BZ2_bzDecompressInit(&d->u.b, 0, 0) == BZ_OK;
		break;
	case CGU_CODEC_ZSTD:
		d->u.zs = ZSTD_createDStream();
		ok = d->u.zs && !ZSTD_isError(ZSTD_initDStream(d->u.zs));
		break;
	default:
		ok = 0;
	}
	d->live = ok;
	return ok ? 0 : fail(r, CGU_EIO, "cannot read: cannot set up the %s "
			     "decoder", cgu_codec_name(r->codec));
}

static void dec_end(struct cgu_reader *r)
{
	struct cgu_decoder *d = r->dec;

	if (!d || !d->live)
		return;
	switch (r->codec) {
	case CGU_CODEC_GZIP: inflateEnd(&d->u.z); break;
	case CGU_CODEC_XZ: lzma_end(&d->u.x); break;
	case CGU_CODEC_BZIP2: BZ2_bzDecompressEnd(&d->u.b); break;
	case CGU_CODEC_ZSTD: ZSTD_freeDStream(d->u.zs); break;
	default: break;
	}
	d->live = 0;
}

static const char *xz_why(lzma_ret ret)
{
	switch (ret) {
	case LZMA_FORMAT_ERROR: return "not xz data";
	case LZMA_OPTIONS_ERROR: return "xz data with unsupported options";
	case LZMA_MEMLIMIT_ERROR: return "xz data needing more than 1 GiB "
		"of memory to decompress";
	case LZMA_MEM_ERROR: return "out of memory";
	case LZMA_BUF_ERROR: return "xz data cut short (truncated file?)";
	default: return "xz data corrupt";
	}
}

/* Decode from r->in into to[0..room): the bytes made (0 is fine when
 * the decoder only took input), or -1.  Sets r->stream_end at the end
 * of a stream. */
static ssize_t decode(struct cgu_reader *r, char *to, size_t room)
{
	struct cgu_decoder *d = r->dec;
	size_t made = 0, used = 0;

	r->stream_end = 0;
	switch (r->codec) {
	case CGU_CODEC_GZIP: {
		z_stream *z = &d->u.z;
		int ret;

		z->next_in = (Bytef *)r->in;
		z->avail_in = r->in_len > UINT32_MAX ? UINT32_MAX : (uInt)r->in_len;
		z->next_out = (Bytef *)to;
		z->avail_out = (uInt)room;
		ret = inflate(z, Z_NO_FLUSH);
		used = (size_t)(z->next_in - r->in);
		made = room - z->avail_out;
		if (ret == Z_STREAM_END)
			r->stream_end = 1;
		else if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT)
			return fail(r, CGU_EIO, "cannot read: %s", z->msg ? z->msg
				    : "gzip data corrupt");
		else if (ret == Z_MEM_ERROR)
			return fail(r, CGU_EIO, "cannot read: out of memory");
		break;
	}
	case CGU_CODEC_XZ: {
		lzma_stream *x = &d->u.x;
		lzma_ret ret;

		x->next_in = r->in;
		x->avail_in = r->in_len;
		x->next_out = (uint8_t *)to;
		x->avail_out = room;
		ret = lzma_code(x, r->in_eof ? LZMA_FINISH : LZMA_RUN);
		used = (size_t)(x->next_in - r->in);
		made = room - x->avail_out;
		if (ret == LZMA_STREAM_END)
			r->stream_end = 1;
		else if (ret != LZMA_OK && !(ret == LZMA_BUF_ERROR && made))
			return fail(r, CGU_EIO, "cannot read: %s", xz_why(ret));
		break;
	}
	case CGU_CODEC_BZIP2: {
		bz_stream *b = &d->u.b;
		int ret;

		b->next_in = (char *)r->in;
		b->avail_in = r->in_len > UINT32_MAX ? UINT32_MAX : (unsigned)r->in_len;
		b->next_out = to;
		b->avail_out = (unsigned)room;
		ret = BZ2_bzDecompress(b);
		used = (size_t)((const unsigned char *)b->next_in - r->in);
		made = room - b->avail_out;
		if (ret == BZ_STREAM_END)
			r->stream_end = 1;
		else if (ret == BZ_MEM_ERROR)
			return fail(r, CGU_EIO, "cannot read: out of memory");
		else if (ret != BZ_OK)
			return fail(r, CGU_EIO, "cannot read: bzip2 data corrupt");
		break;
	}
	case CGU_CODEC_ZSTD: {
		ZSTD_inBuffer in = { r->in, r->in_len, 0 };
		ZSTD_outBuffer out = { to, room, 0 };
		size_t ret = ZSTD_decompressStream(d->u.zs, &out, &in);

		if (ZSTD_isError(ret))
			return fail(r, CGU_EIO, "cannot read: zstd data corrupt "
				    "(%s)", ZSTD_getErrorName(ret));
		used = in.pos;
		made = out.pos;
		r->stream_end = ret == 0;
		break;
	}
	default:
		break;
	}
	r->in += used;
	r->in_len -= used;
	return (ssize_t)made;
}

/* After the end of a stream: does another one follow?  A gzip member
 * or a bzip2 stream starts with the magic bytes again; anything else
 * after them is ignored, as gzip and bzip2 (and zlib before) do.  zstd
 * frames and xz streams are read on by their decoders. */
static int next_stream(struct cgu_reader *r)
{
	if (r->codec == CGU_CODEC_ZSTD || r->codec == CGU_CODEC_XZ)
		return 1;
	if (r->in_len < 2 || sniff(r->in, r->in_len) != r->codec) {
		r->in_len = 0;
		r->in_eof = 1;
		return 0;
	}
	dec_end(r);
	return dec_start(r) ? -1 : 1;
}

/* Decompress into to[0..room): the bytes made, 0 only at the end of the
 * data, or -1. */
static ssize_t fill_compressed(struct cgu_reader *r, char *to, size_t room)
{
	for (;;) {
		ssize_t made;
		int next;

		if (more_input(r))
			return -1;
		if (r->stream_end) {
			if (r->in_len == 0 && r->in_eof)
				return 0;
			next = next_stream(r);
			if (next <= 0)
				return next;
			r->stream_end = 0;
		}
		made = decode(r, to, room);
		if (made != 0)
			return made;
		/* Nothing made: at a stream's end, or the decoder took
		 * input and wants more, which at the end of the input is
		 * a stream cut short. */
		if (!r->stream_end && r->in_len == 0 && r->in_eof)
			return cut_short(r);
	}
}

/* ----------------------------------------------------------- fill */

/* After a fill: remember the first NUL byte of the new data (one
 * memchr a buffer instead of one a line). */
static void note_nul(struct cgu_reader *r, size_t from)
{
	if (!r->nul)
		r->nul = memchr(r->buf + from, '\0', r->end - from);
}

/* After a fill: the lines up to the last newline are whole.  Fills
 * only happen when buf[start..end) has no newline, so only the new data
 * is searched. */
static void note_complete(struct cgu_reader *r, size_t from)
{
	char *nl = memrchr(r->buf + from, '\n', r->end - from);

	r->complete = nl ? (size_t)(nl - r->buf) + 1 : r->start;
}

/* Plain data after the got bytes already taken: from fd or memory. */
static ssize_t plain_more(struct cgu_reader *r, char *to, size_t room,
			  ssize_t got)
{
	size_t n;

	if (r->fd >= 0) {
		ssize_t more = read_fd(r, to, room);

		return more < 0 ? -1 : got + more;
	}
	n = r->mem_len - r->mem_pos < room ? r->mem_len - r->mem_pos : room;
	if (n)
		memcpy(to, r->mem + r->mem_pos, n);
	r->mem_pos += n;
	return got + (ssize_t)n;
}

int cgu_reader_fill(struct cgu_reader *r)
{
	size_t room, fill_from;
	ssize_t got;

	if (r->err_code)
		return -1;
	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		if (r->nul)
			r->nul -= r->start;
		r->end -= r->start;
		r->start = 0;
	}
	fill_from = r->end;
	room = r->cap - r->end - 1;
	if (room > READ_CHUNK)
		room = READ_CHUNK;
	if (r->codec != CGU_CODEC_NONE) {
		/* one byte past the bound tells a longer input */
		if (r->max_input - r->total < room)
			room = (size_t)(r->max_input - r->total) + 1;
		got = fill_compressed(r, r->buf + r->end, room);
	} else {
		got = 0;
		if (r->in_len) {        /* the magic bytes, read first */
			got = (ssize_t)(r->in_len < room ? r->in_len : room);
			memcpy(r->buf + r->end, r->in, (size_t)got);
			r->in += got;
			r->in_len -= (size_t)got;
		}
		if ((size_t)got < room)
			got = plain_more(r, r->buf + r->end + got,
					 room - (size_t)got, got);
	}
	if (got < 0)
		return -1;
	r->end += (size_t)got;
	r->total += (size_t)got;
	r->eof = got == 0;
	if (r->codec != CGU_CODEC_NONE && r->total > r->max_input)
		return fail(r, CGU_EINPUT, "%s data decompresses to more than "
			    "%llu bytes; expected at most that (see "
			    "--max-input)", cgu_codec_name(r->codec),
			    (unsigned long long)r->max_input);
	memset(r->buf + r->end, 0, CGU_READER_PAD);
	note_nul(r, fill_from);
	note_complete(r, fill_from);
	return 0;
}

/* ---------------------------------------------------------- setup */

void cgu_reader_init(struct cgu_reader *r, const struct cgu_parse_opts *o,
		     size_t size_hint)
{
	memset(r, 0, sizeof(*r));
	r->max_line = o && o->max_line ? o->max_line : CGU_DEFAULT_MAX_LINE;
	r->max_input = o && o->max_input ? o->max_input : CGU_DEFAULT_MAX_INPUT;
	r->cap = r->max_line + READ_CHUNK + 2;
	if (size_hint && size_hint + 2 < r->cap)
		r->cap = size_hint + 2;
	r->fd = -1;
	r->buf = malloc(r->cap + CGU_READER_PAD);
	if (!r->buf)
		abort();
	memset(r->buf, 0, CGU_READER_PAD);
}

void cgu_reader_release(struct cgu_reader *r)
{
	dec_end(r);
	free(r->dec);
	free(r->inbuf);
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	r->dec = NULL;
	r->inbuf = NULL;
	r->fd = -1;
	r->buf = NULL;
}

/* The first bytes are in r->in: set up their decoder.  Decompressed
 * data may be larger than a size hint: the buffer gets its full size. */
static int start_codec(struct cgu_reader *r)
{
	size_t cap = r->max_line + READ_CHUNK + 2;
	char *buf;

	r->codec = sniff(r->in, r->in_len);
	if (r->codec == CGU_CODEC_NONE)
		return 0;
	if (r->cap < cap) {
		buf = realloc(r->buf, cap + CGU_READER_PAD);
		if (!buf)
			abort();
		r->buf = buf;
		r->cap = cap;
	}
	if (r->fd >= 0) {
		r->inbuf = malloc(READ_CHUNK);
		if (!r->inbuf)
			abort();
		memcpy(r->inbuf, r->in, r->in_len);
		r->in = r->inbuf;
	}
	r->dec = calloc(1, sizeof(*r->dec));
	if (!r->dec)
		abort();
	return dec_start(r);    /* an error comes with the first fill */
}

void cgu_reader_mem(struct cgu_reader *r, const char *data, size_t len)
{
	r->mem = data;
	r->mem_len = len;
	if (sniff((const unsigned char *)data, len) == CGU_CODEC_NONE)
		return;
	r->in = (const unsigned char *)data;
	r->in_len = len;
	r->mem_pos = len;
	r->in_eof = 1;
	start_codec(r);
}

int cgu_reader_open(struct cgu_reader *r, const char *path,
		    struct cgu_error *err)
{
	size_t n = 0;

	if (!strcmp(path, "-"))
		r->fd = dup(0);
	else
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return cgu_error_set(err, CGU_EIO, path, 0, "cannot open: %m");
	/* The magic bytes, read (not peeked at: stdin and pipes cannot
	 * be); plain text takes them back first.  A read error comes with
	 * the first fill. */
	while (n < MAGIC_LEN) {
		ssize_t got = read_fd(r, r->magic + n, MAGIC_LEN - n);

		if (got <= 0)
			break;
		n += (size_t)got;
	}
	r->in = r->magic;
	r->in_len = n;
	if (!r->err_code)
		start_codec(r);
	return 0;
}

int cgu_reader_read_error(const struct cgu_reader *r, const char *name,
			  struct cgu_error *err)
{
	return cgu_error_set(err, r->err_code ? r->err_code : CGU_EIO, name, 0,
			     "%s", r->why[0] ? r->why : "cannot read");
}

/* Bytes peek wants to see, unless a line ends before. */
#define PEEK_MIN 64

int cgu_reader_peek(struct cgu_reader *r, const char **data, size_t *len)
{
	while (!r->eof && r->end - r->start < PEEK_MIN &&
	       !memchr(r->buf + r->start, '\n', r->end - r->start))
		if (cgu_reader_fill(r))
			return -1;
	*data = r->buf + r->start;
	*len = r->end - r->start;
	return 0;
}
