#ifndef UMILOG_CZLIB_SHIM_H
#define UMILOG_CZLIB_SHIM_H

#include <zlib.h>

/// `inflateInit2` for a raw deflate stream (no zlib or gzip wrapper), which Swift cannot call in
/// its macro form.
static inline int umilog_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
