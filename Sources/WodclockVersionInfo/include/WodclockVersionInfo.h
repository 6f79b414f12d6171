// SPDX-License-Identifier: MIT
// The program's version, compiled in from the VERSION file at the top of the source tree with
// C23 #embed: the one place the binaries, the Debian package and the changelog take it from.
#ifndef WODCLOCK_VERSION_INFO_H
#define WODCLOCK_VERSION_INFO_H

#include <stddef.h>

/// The VERSION file's bytes, exactly as in the repository (its line break included).
const unsigned char *wodclock_version_bytes(void);

/// How many bytes `wodclock_version_bytes()` has.
size_t wodclock_version_length(void);

#endif
