// SPDX-License-Identifier: MIT
// The VERSION file pulled in with C23 #embed, relative to this file; the build tracks it as a
// dependency (like the web pages of WebAssets), so a new version rebuilds this table.

#include "WodclockVersionInfo.h"

static const unsigned char version_file[] = {
#embed "../../VERSION"
};

const unsigned char *wodclock_version_bytes(void) { return version_file; }

size_t wodclock_version_length(void) { return sizeof(version_file); }
