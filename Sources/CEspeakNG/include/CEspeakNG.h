// SPDX-License-Identifier: MIT
// libespeak-ng, loaded with dlopen in the voice synthesizer's child process only
// (`wodclockd --synthesize-voice LANG`), never in the daemon. See CEspeakNG.c.

#ifndef CESPEAKNG_H
#define CESPEAKNG_H

#include <stddef.h>
#include <stdint.h>

/// Loads libespeak-ng.so.1 and initializes it with its data (the Debian package's own path)
/// for synthesis into memory, once; later calls return the first outcome. Returns the sample
/// rate of what it makes (22050 Hz for 1.51), or -1 with the reason in `message`.
int cespeak_load(char *message, size_t size);

/// Selects the voice `name` (espeak-ng's, such as "en" or "fr"). Returns 0, or -1 with the
/// library's reason in `message`.
int cespeak_select_voice(const char *name, char *message, size_t size);

/// Sets the speaking rate in words per minute (80 to 450).
int cespeak_set_rate(int words_per_minute);

/// Synthesizes the UTF-8 text `text` into the shim's buffer, keeping at most `max_samples`
/// samples (16-bit signed, mono, at the rate `cespeak_load` returned). On success `*samples`
/// points at them (valid until the next call) and `*count` is how many. Returns 0, 1 when the
/// line was longer than `max_samples` (synthesis is stopped), or -1 with the reason in
/// `message`.
int cespeak_synthesize(const char *text, size_t max_samples, const int16_t **samples,
                       size_t *count, char *message, size_t size);

#endif
