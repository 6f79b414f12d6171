// SPDX-License-Identifier: MIT
// libespeak-ng through dlopen (headers: Debian's <espeak-ng/speak_lib.h> and
// <espeak-ng/espeak_ng.h>, 1.51).
//
// Why not linked: libespeak-ng.so.1 brings pcaudio, PulseAudio, libsndfile, X11 and 20 more
// libraries with it; a bare C program that links it starts at 4.9 MB resident instead of
// 1.2 MB, whether or not it ever speaks. wodclockd's synthesizer child is the daemon's own
// binary, so a link would cost the daemon those 3.7 MB at every start. The library is loaded
// here, in the child (`wodclockd --synthesize-voice LANG`), which exits when the voice is made.
//
// Synthesis is espeak-ng's synchronous mode with a synth callback: each line's samples come to
// the callback before espeak_ng_Synthesize returns, and no thread of the library's own is
// started (AUDIO_OUTPUT_RETRIEVAL queues the text for one) nor any audio device opened.

#define _GNU_SOURCE
#include "CEspeakNG.h"

#include "CDynamicLibrary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>

#define LIBRARY_NAME "libespeak-ng.so.1"

// The functions used, resolved from the library; the types are the headers' own, so a
// mismatch is a compile error, not a crash.
static struct {
  __typeof__(&espeak_ng_InitializePath) initialize_path;
  __typeof__(&espeak_ng_Initialize) initialize;
  __typeof__(&espeak_ng_InitializeOutput) initialize_output;
  __typeof__(&espeak_ng_GetSampleRate) get_sample_rate;
  __typeof__(&espeak_ng_GetStatusCodeMessage) get_status_code_message;
  __typeof__(&espeak_ng_SetVoiceByName) set_voice_by_name;
  __typeof__(&espeak_ng_SetParameter) set_parameter;
  __typeof__(&espeak_SetSynthCallback) set_synth_callback;
  __typeof__(&espeak_ng_Synthesize) synthesize;
} espeak;

// What the callback collects: the samples of the line being synthesized. The child is
// single-threaded and synthesis synchronous, so one buffer serves.
static struct {
  int16_t *samples;
  size_t count;
  size_t capacity;
  size_t limit;
  int overflowed;
  int out_of_memory;
} line;

static void describe(espeak_ng_STATUS status, char *message, size_t size) {
  if (message == NULL || size == 0) return;
  char text[256] = "";
  espeak.get_status_code_message(status, text, sizeof text);
  snprintf(message, size, "%s", text[0] != 0 ? text : "espeak-ng failed");
}

// Returns 1 to stop the synthesis (speak_lib.h, t_espeak_callback), 0 to go on.
static int collect(short *wave, int count, espeak_EVENT *events) {
  (void)events;
  if (wave == NULL || count <= 0) return 0;
  size_t wanted = line.count + (size_t)count;
  if (wanted > line.limit) {
    line.overflowed = 1;
    return 1;
  }
  if (wanted > line.capacity) {
    size_t capacity = line.capacity < 4096 ? 4096 : line.capacity;
    while (capacity < wanted) capacity *= 2;
    int16_t *grown = realloc(line.samples, capacity * sizeof(int16_t));
    if (grown == NULL) {
      line.out_of_memory = 1;
      return 1;
    }
    line.samples = grown;
    line.capacity = capacity;
  }
  memcpy(line.samples + line.count, wave, (size_t)count * sizeof(int16_t));
  line.count = wanted;
  return 0;
}

// Loaded once by cespeak_load (CDynamicLibrary.h). The once-only state is safe here too: the
// child is a new program (posix_spawn of wodclockd), so it starts untried, and the child is
// single-threaded; a second call answers the first one's outcome instead of initializing the
// library again.
static struct cdl_library library = {.name = LIBRARY_NAME};

// The rate of what the library makes, set by `initialize`.
static int sample_rate;

// After the look-ups: the data, synthesis into memory, and the callback that collects it.
static int initialize(char *error, size_t size) {
  // NULL: $ESPEAK_DATA_PATH, else the data directory the library was built with (Debian's
  // espeak-ng-data package).
  espeak.initialize_path(NULL);
  espeak_ng_STATUS status = espeak.initialize(NULL);
  if (status != ENS_OK) {
    describe(status, error, size);
    return -1;
  }
  status = espeak.initialize_output(ENOUTPUT_MODE_SYNCHRONOUS, 0, NULL);
  if (status != ENS_OK) {
    describe(status, error, size);
    return -1;
  }
  espeak.set_synth_callback(collect);
  sample_rate = espeak.get_sample_rate();
  if (sample_rate <= 0) {
    snprintf(error, size, "no sample rate from espeak-ng");
    return -1;
  }
  return 0;
}

int cespeak_load(char *message, size_t size) {
#define SYMBOL(field, symbol) CDL_SYMBOL(espeak, field, symbol)
  static const struct cdl_symbol symbols[] = {
      SYMBOL(initialize_path, espeak_ng_InitializePath),
      SYMBOL(initialize, espeak_ng_Initialize),
      SYMBOL(initialize_output, espeak_ng_InitializeOutput),
      SYMBOL(get_sample_rate, espeak_ng_GetSampleRate),
      SYMBOL(get_status_code_message, espeak_ng_GetStatusCodeMessage),
      SYMBOL(set_voice_by_name, espeak_ng_SetVoiceByName),
      SYMBOL(set_parameter, espeak_ng_SetParameter),
      SYMBOL(set_synth_callback, espeak_SetSynthCallback),
      SYMBOL(synthesize, espeak_ng_Synthesize),
  };
#undef SYMBOL
  if (cdl_load(&library, symbols, sizeof symbols / sizeof symbols[0], initialize, message,
               size) != 0) {
    return -1;
  }
  return sample_rate;
}

int cespeak_select_voice(const char *name, char *message, size_t size) {
  espeak_ng_STATUS status = espeak.set_voice_by_name(name);
  if (status == ENS_OK) return 0;
  describe(status, message, size);
  return -1;
}

int cespeak_set_rate(int words_per_minute) {
  return espeak.set_parameter(espeakRATE, words_per_minute, 0) == ENS_OK ? 0 : -1;
}

int cespeak_synthesize(const char *text, size_t max_samples, const int16_t **samples,
                       size_t *count, char *message, size_t size) {
  line.count = 0;
  line.limit = max_samples;
  line.overflowed = 0;
  line.out_of_memory = 0;
  espeak_ng_STATUS status = espeak.synthesize(text, strlen(text) + 1, 0, POS_CHARACTER, 0,
                                              espeakCHARS_UTF8, NULL, NULL);
  *samples = line.samples;
  *count = line.count;
  if (line.out_of_memory) {
    if (message != NULL && size > 0) snprintf(message, size, "out of memory");
    return -1;
  }
  if (line.overflowed) return 1;
  if (status != ENS_OK) {
    describe(status, message, size);
    return -1;
  }
  return 0;
}
