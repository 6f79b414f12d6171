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

#include <dlfcn.h>
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

static int resolve(void *library, const char *name, void **slot, char *message, size_t size) {
  *slot = dlsym(library, name);
  if (*slot != NULL) return 0;
  if (message != NULL && size > 0) snprintf(message, size, "%s: no symbol %s", LIBRARY_NAME, name);
  return -1;
}

int cespeak_load(char *message, size_t size) {
  void *library = dlopen(LIBRARY_NAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    if (message != NULL && size > 0) snprintf(message, size, "%s", reason ? reason : LIBRARY_NAME);
    return -1;
  }
  int failed = 0;
#define RESOLVE(field, symbol) \
  failed = failed || resolve(library, #symbol, (void **)&espeak.field, message, size)
  RESOLVE(initialize_path, espeak_ng_InitializePath);
  RESOLVE(initialize, espeak_ng_Initialize);
  RESOLVE(initialize_output, espeak_ng_InitializeOutput);
  RESOLVE(get_sample_rate, espeak_ng_GetSampleRate);
  RESOLVE(get_status_code_message, espeak_ng_GetStatusCodeMessage);
  RESOLVE(set_voice_by_name, espeak_ng_SetVoiceByName);
  RESOLVE(set_parameter, espeak_ng_SetParameter);
  RESOLVE(set_synth_callback, espeak_SetSynthCallback);
  RESOLVE(synthesize, espeak_ng_Synthesize);
#undef RESOLVE
  if (failed) return -1;
  // NULL: $ESPEAK_DATA_PATH, else the data directory the library was built with (Debian's
  // espeak-ng-data package).
  espeak.initialize_path(NULL);
  espeak_ng_STATUS status = espeak.initialize(NULL);
  if (status != ENS_OK) {
    describe(status, message, size);
    return -1;
  }
  status = espeak.initialize_output(ENOUTPUT_MODE_SYNCHRONOUS, 0, NULL);
  if (status != ENS_OK) {
    describe(status, message, size);
    return -1;
  }
  espeak.set_synth_callback(collect);
  int rate = espeak.get_sample_rate();
  if (rate <= 0) {
    if (message != NULL && size > 0) snprintf(message, size, "no sample rate from espeak-ng");
    return -1;
  }
  return rate;
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
