// SPDX-License-Identifier: MIT
// The web interface's files (the display, the remote, the judge's page, their styles and
// scripts, the exercise catalogue), compiled into the binary with C23 #embed: no file is read at run time, so the
// pages a daemon serves are always the ones it was built with.
#ifndef WODCLOCK_WEBASSETS_H
#define WODCLOCK_WEBASSETS_H

#include <stddef.h>

/// One embedded file: the URL path it is served at, its bytes and its Content-Type.
typedef struct WebAsset {
  /// `/`, `/remote`, `/assets/style.css` ...; NULL past the end of the table.
  const char *path;
  /// The file's bytes, exactly as in the repository (no terminating NUL counted).
  const unsigned char *bytes;
  size_t length;
  /// The Content-Type header's value, `text/css; charset=utf-8` ...
  const char *content_type;
} WebAsset;

/// How many files there are.
size_t web_asset_count(void);

/// The file at `index` (0 ..< web_asset_count()); past the end, a file whose path is NULL.
/// A function rather than an array: an array of unknown size does not import into Swift.
WebAsset web_asset(size_t index);

#endif
