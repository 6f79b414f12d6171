// SPDX-License-Identifier: MIT
// Loading a library on demand with dlopen, for the C modules that do (CALSA, CEspeakNG,
// CMicroHTTPD, CMosquitto): each keeps its own functions and says which symbols fill them;
// this does the opening, the look-ups and the bookkeeping they all did alike.
//
// Why dlopen at all: each of those libraries, linked, would be mapped with its dependencies at
// every start of the daemon whether or not it is used (see each module's .c file).
#ifndef WODCLOCK_CDYNAMICLIBRARY_H
#define WODCLOCK_CDYNAMICLIBRARY_H

#include <stdbool.h>
#include <stddef.h>

/// One library, as a module keeps it for the life of the process (a static, zero-initialized
/// but for `name`).
struct cdl_library {
  /// The soname given to dlopen, such as "libasound.so.2", which starts the errors written here.
  const char *name;
  /// 0: not tried yet, 1: loaded and every symbol resolved, -1: failed (the reason in `error`).
  int state;
  /// Why it failed, NUL-terminated: dlerror()'s text when the library cannot be opened,
  /// "<name>: no symbol <symbol>" when one is missing, or what `after_load` wrote.
  char error[512];
};

/// One function to look up: its name in the library and where its address goes (the address of
/// a function-pointer field, cast to `void **`).
struct cdl_symbol {
  const char *name;
  void **slot;
};

/// A table entry for `symbol` into the field `field` of the module's struct `functions`.
#define CDL_SYMBOL(functions, field, symbol) {#symbol, (void **)&(functions).field}

/// Loads `library` once, on the first call: dlopen(3) with RTLD_NOW | RTLD_LOCAL (every symbol
/// bound now, so a broken library fails here and not at some later call; none of its symbols,
/// nor its dependencies', can interpose on the program's), then dlsym(3) for each of the
/// `count` symbols in order, stopping at the first one missing, then `after_load` (may be NULL)
/// for the library's own initialization, which returns 0 or -1 with its reason written to
/// `error` (of `size` bytes). Later calls open nothing: they answer the first call's outcome.
///
/// Returns 0 when the library is loaded, or -1 with `library->error` copied to `message`
/// (NUL-terminated, cut to `size`; nothing is written when `message` is NULL or `size` 0).
///
/// A library that opened but lacks a symbol, or whose `after_load` failed, stays mapped and is
/// never called: dlclose(3) of it buys nothing worth its risk. It happens only with a wrong
/// version of the library installed, where a few pages more do not matter; its constructors
/// (and perhaps part of `after_load`) have run, and a library or one of its dependencies that
/// registered handlers or started threads does not expect to be unmapped; and the outcome is
/// kept, so it is never opened a second time.
///
/// No lock: each library is loaded from one thread only (the daemon's loop, or the voice
/// synthesizer's single-threaded child).
int cdl_load(struct cdl_library *library, const struct cdl_symbol *symbols, size_t count,
             int (*after_load)(char *error, size_t size), char *message, size_t size);

/// Whether `library` was loaded: the guard of every wrapper that calls one of its functions.
static inline bool cdl_loaded(const struct cdl_library *library) { return library->state > 0; }

#endif
