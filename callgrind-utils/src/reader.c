/* reader.c - the line reader of the parsers, see reader.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <callgrind-utils/parse.h>
#include "reader.h"

/* Bytes a read asks for: small enough for the data to be still in the
 * cache when it is parsed, large enough for zlib to read (or inflate)
 * straight into the buffer (at least twice its gzbuffer() size). */
#define READ_CHUNK (128u * 1024u)
#define GZ_BUFFER (READ_CHUNK / 2)

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

int cgu_reader_fill(struct cgu_reader *r)
{
	size_t room, n, fill_from;
	int got;

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
	if (r->fd >= 0) {
		ssize_t got_fd;

		do
			got_fd = read(r->fd, r->buf + r->end, room);
		while (got_fd < 0 && errno == EINTR);
		if (got_fd < 0) {
			r->read_errno = errno;
			return -1;
		}
		r->end += (size_t)got_fd;
		r->eof = got_fd == 0;
		goto filled;
	}
	if (!r->gz) {
		n = r->mem_len - r->mem_pos < room ? r->mem_len - r->mem_pos : room;
		if (n)
			memcpy(r->buf + r->end, r->mem + r->mem_pos, n);
		r->mem_pos += n;
		r->end += n;
		r->eof = r->mem_pos == r->mem_len;
		goto filled;
	}
	got = gzread(r->gz, r->buf + r->end, (unsigned)room);
	if (got < 0)
		return -1;
	r->end += (size_t)got;
	if (got == 0)
		r->eof = 1;
filled:
	memset(r->buf + r->end, 0, CGU_READER_PAD);
	note_nul(r, fill_from);
	note_complete(r, fill_from);
	return 0;
}

void cgu_reader_init(struct cgu_reader *r, size_t max_line, size_t size_hint)
{
	memset(r, 0, sizeof(*r));
	r->max_line = max_line ? max_line : CGU_DEFAULT_MAX_LINE;
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
	if (r->gz)
		gzclose(r->gz);
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	r->gz = NULL;
	r->fd = -1;
	r->buf = NULL;
}

void cgu_reader_mem(struct cgu_reader *r, const char *data, size_t len)
{
	r->mem = data;
	r->mem_len = len;
}

int cgu_reader_open(struct cgu_reader *r, const char *path,
		    struct cgu_error *err)
{
	unsigned char magic[2];
	int fd = -1, e;

	if (!strcmp(path, "-")) {
		r->gz = gzdopen(dup(0), "rb");
	} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		/* zlib only for gzip data (it would copy plain text once
		 * more) and for what cannot be peeked at, such as a pipe */
		ssize_t m = pread(fd, magic, 2, 0);

		if ((m < 0 && errno == ESPIPE) ||
		    (m == 2 && magic[0] == 0x1f && magic[1] == 0x8b))
			r->gz = gzdopen(fd, "rb");
		else
			r->fd = fd;
	}
	if (r->gz) {
		gzbuffer(r->gz, GZ_BUFFER);
		return CGU_OK;
	}
	if (r->fd >= 0)
		return CGU_OK;
	e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return cgu_error_set(err, CGU_EIO, path, 0, "cannot open: %m");
}

int cgu_reader_read_error(const struct cgu_reader *r, const char *name,
			  struct cgu_error *err)
{
	int zerr = 0;
	const char *why = r->gz ? gzerror(r->gz, &zerr)
		: r->fd >= 0 ? strerror(r->read_errno)
		: "read error";
	size_t n = strlen(name);

	/* zlib repeats the path, "<fd:N>" after gzdopen() */
	if (!strncmp(why, name, n) && !strncmp(why + n, ": ", 2))
		why += n + 2;
	else if (!strncmp(why, "<fd:", 4) && strstr(why, ">: "))
		why = strstr(why, ">: ") + 3;
	return cgu_error_set(err, CGU_EIO, name, 0, "cannot read: %s", why);
}

int cgu_reader_peek(struct cgu_reader *r, const char **data, size_t *len)
{
	if (r->end == r->start && !r->eof && cgu_reader_fill(r))
		return -1;
	*data = r->buf + r->start;
	*len = r->end - r->start;
	return 0;
}
