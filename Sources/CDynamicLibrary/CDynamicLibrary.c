// SPDX-License-Identifier: MIT
// See CDynamicLibrary.h.

#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <stdio.h>

static int open_and_resolve(struct cdl_library *library, const struct cdl_symbol *symbols,
                            size_t count, int (*after_load)(char *error, size_t size)) {
  void *handle = dlopen(library->name, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(library->error, sizeof library->error, "%s",
             reason != NULL ? reason : library->name);
    return -1;
  }
  for (size_t index = 0; index < count; index++) {
    // dlsym(3) can answer NULL for a symbol whose value is NULL, but never for a function that
    // is there: for the functions looked up here, NULL means missing.
    *symbols[index].slot = dlsym(handle, symbols[index].name);
    if (*symbols[index].slot == NULL) {
      snprintf(library->error, sizeof library->error, "%s: no symbol %s", library->name,
               symbols[index].name);
      return -1;
    }
  }
  if (after_load != NULL && after_load(library->error, sizeof library->error) != 0) return -1;
  return 0;
}

int cdl_load(struct cdl_library *library, const struct cdl_symbol *symbols, size_t count,
             int (*after_load)(char *error, size_t size), char *message, size_t size) {
  if (library->state == 0) {
    library->state = open_and_resolve(library, symbols, count, after_load) == 0 ? 1 : -1;
  }
  if (library->state < 0 && message != NULL && size > 0) {
    snprintf(message, size, "%s", library->error);
  }
  return library->state > 0 ? 0 : -1;
}
