// SPDX-License-Identifier: MIT
// libasound through dlopen (header: Debian's <alsa/asoundlib.h>, 1.2.8).
//
// Why not linked: a clock without a speaker must not pay for one. libasound.so.2 is 1.1 MB of
// code, and a process that links it maps it (and its relocations) at every start; so, as
// CMicroHTTPD does with libmicrohttpd, the library is loaded the first time a PCM or mixer is
// opened, RTLD_LOCAL so that none of its symbols can interpose on the program's, and every
// function used is resolved here by name. Its plugins (dmix, pulse) are loaded by the library
// itself as it reads /usr/share/alsa/alsa.conf.

#define _GNU_SOURCE
#include "CALSA.h"

#include "CDynamicLibrary.h"

#include <poll.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <alsa/asoundlib.h>

_Static_assert(CALSA_PLAYBACK == SND_PCM_STREAM_PLAYBACK && CALSA_CAPTURE == SND_PCM_STREAM_CAPTURE,
               "the shim's streams are ALSA's");
_Static_assert(CALSA_STATE_OPEN == SND_PCM_STATE_OPEN && CALSA_STATE_SETUP == SND_PCM_STATE_SETUP &&
                   CALSA_STATE_PREPARED == SND_PCM_STATE_PREPARED &&
                   CALSA_STATE_RUNNING == SND_PCM_STATE_RUNNING &&
                   CALSA_STATE_XRUN == SND_PCM_STATE_XRUN &&
                   CALSA_STATE_DRAINING == SND_PCM_STATE_DRAINING &&
                   CALSA_STATE_PAUSED == SND_PCM_STATE_PAUSED &&
                   CALSA_STATE_SUSPENDED == SND_PCM_STATE_SUSPENDED &&
                   CALSA_STATE_DISCONNECTED == SND_PCM_STATE_DISCONNECTED,
               "the shim's states are ALSA's");

_Static_assert(sizeof(struct calsa_pollfd) == sizeof(struct pollfd) &&
                   offsetof(struct calsa_pollfd, fd) == offsetof(struct pollfd, fd) &&
                   offsetof(struct calsa_pollfd, events) == offsetof(struct pollfd, events) &&
                   offsetof(struct calsa_pollfd, revents) == offsetof(struct pollfd, revents),
               "struct calsa_pollfd is struct pollfd");

#define LIBRARY_NAME "libasound.so.2"

// The functions used, resolved from the library; the types are the header's own, so a
// mismatch is a compile error, not a crash.
static struct {
  __typeof__(&snd_strerror) strerror;
  __typeof__(&snd_lib_error_set_handler) lib_error_set_handler;
  __typeof__(&snd_pcm_open) pcm_open;
  __typeof__(&snd_pcm_close) pcm_close;
  __typeof__(&snd_pcm_hw_params_malloc) hw_params_malloc;
  __typeof__(&snd_pcm_hw_params_free) hw_params_free;
  __typeof__(&snd_pcm_hw_params_any) hw_params_any;
  __typeof__(&snd_pcm_hw_params_set_access) hw_params_set_access;
  __typeof__(&snd_pcm_hw_params_set_format) hw_params_set_format;
  __typeof__(&snd_pcm_hw_params_test_channels) hw_params_test_channels;
  __typeof__(&snd_pcm_hw_params_set_channels_first) hw_params_set_channels_first;
  __typeof__(&snd_pcm_hw_params_set_channels) hw_params_set_channels;
  __typeof__(&snd_pcm_hw_params_set_rate_near) hw_params_set_rate_near;
  __typeof__(&snd_pcm_hw_params_set_buffer_time_near) hw_params_set_buffer_time_near;
  __typeof__(&snd_pcm_hw_params_set_period_size_near) hw_params_set_period_size_near;
  __typeof__(&snd_pcm_hw_params_get_buffer_size) hw_params_get_buffer_size;
  __typeof__(&snd_pcm_hw_params_get_period_size) hw_params_get_period_size;
  __typeof__(&snd_pcm_hw_params_get_rate) hw_params_get_rate;
  __typeof__(&snd_pcm_hw_params_get_channels) hw_params_get_channels;
  __typeof__(&snd_pcm_hw_params) hw_params;
  __typeof__(&snd_pcm_sw_params_malloc) sw_params_malloc;
  __typeof__(&snd_pcm_sw_params_free) sw_params_free;
  __typeof__(&snd_pcm_sw_params_current) sw_params_current;
  __typeof__(&snd_pcm_sw_params_set_start_threshold) sw_params_set_start_threshold;
  __typeof__(&snd_pcm_sw_params_set_avail_min) sw_params_set_avail_min;
  __typeof__(&snd_pcm_sw_params_set_tstamp_mode) sw_params_set_tstamp_mode;
  __typeof__(&snd_pcm_sw_params_set_tstamp_type) sw_params_set_tstamp_type;
  __typeof__(&snd_pcm_sw_params) sw_params;
  __typeof__(&snd_pcm_poll_descriptors_count) poll_descriptors_count;
  __typeof__(&snd_pcm_poll_descriptors) poll_descriptors;
  __typeof__(&snd_pcm_poll_descriptors_revents) poll_descriptors_revents;
  __typeof__(&snd_pcm_writei) writei;
  __typeof__(&snd_pcm_readi) readi;
  __typeof__(&snd_pcm_avail_update) avail_update;
  __typeof__(&snd_pcm_avail) avail;
  __typeof__(&snd_pcm_delay) delay;
  __typeof__(&snd_pcm_htimestamp) htimestamp;
  __typeof__(&snd_pcm_prepare) prepare;
  __typeof__(&snd_pcm_start) start;
  __typeof__(&snd_pcm_drop) drop;
  __typeof__(&snd_pcm_recover) recover;
  __typeof__(&snd_pcm_state) state;
  __typeof__(&snd_mixer_open) mixer_open;
  __typeof__(&snd_mixer_close) mixer_close;
  __typeof__(&snd_mixer_attach) mixer_attach;
  __typeof__(&snd_mixer_selem_register) mixer_selem_register;
  __typeof__(&snd_mixer_load) mixer_load;
  __typeof__(&snd_mixer_handle_events) mixer_handle_events;
  __typeof__(&snd_mixer_selem_id_malloc) selem_id_malloc;
  __typeof__(&snd_mixer_selem_id_free) selem_id_free;
  __typeof__(&snd_mixer_selem_id_set_name) selem_id_set_name;
  __typeof__(&snd_mixer_selem_id_set_index) selem_id_set_index;
  __typeof__(&snd_mixer_find_selem) find_selem;
  __typeof__(&snd_mixer_first_elem) first_elem;
  __typeof__(&snd_mixer_elem_next) elem_next;
  __typeof__(&snd_mixer_selem_get_name) selem_get_name;
  __typeof__(&snd_mixer_selem_has_playback_volume) selem_has_playback_volume;
  __typeof__(&snd_mixer_selem_get_playback_volume_range) selem_get_playback_volume_range;
  __typeof__(&snd_mixer_selem_get_playback_volume) selem_get_playback_volume;
  __typeof__(&snd_mixer_selem_set_playback_volume_all) selem_set_playback_volume_all;
} asound;

// Loaded once by calsa_load (CDynamicLibrary.h); every wrapper below asks cdl_loaded first.
static struct cdl_library library = {.name = LIBRARY_NAME};

// ALSA prints "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM hw:99" to standard
// error by default; the same failure comes back as a code, which the caller reports in the
// project's words, so the library's own line would only be noise in the journal.
__attribute__((format(printf, 5, 6))) static void silent_error_handler(const char *file, int line,
                                                                      const char *function,
                                                                      int error,
                                                                      const char *format, ...) {
  (void)file;
  (void)line;
  (void)function;
  (void)error;
  (void)format;
}

// After the look-ups: from here on ALSA reports to the handler above, not to standard error.
static int silence_errors(char *error, size_t size) {
  (void)error;
  (void)size;
  asound.lib_error_set_handler(silent_error_handler);
  return 0;
}

int calsa_load(char *message, size_t size) {
#define SYMBOL(field, symbol) CDL_SYMBOL(asound, field, symbol)
  static const struct cdl_symbol symbols[] = {
      SYMBOL(strerror, snd_strerror),
      SYMBOL(lib_error_set_handler, snd_lib_error_set_handler),
      SYMBOL(pcm_open, snd_pcm_open),
      SYMBOL(pcm_close, snd_pcm_close),
      SYMBOL(hw_params_malloc, snd_pcm_hw_params_malloc),
      SYMBOL(hw_params_free, snd_pcm_hw_params_free),
      SYMBOL(hw_params_any, snd_pcm_hw_params_any),
      SYMBOL(hw_params_set_access, snd_pcm_hw_params_set_access),
      SYMBOL(hw_params_set_format, snd_pcm_hw_params_set_format),
      SYMBOL(hw_params_test_channels, snd_pcm_hw_params_test_channels),
      SYMBOL(hw_params_set_channels_first, snd_pcm_hw_params_set_channels_first),
      SYMBOL(hw_params_set_channels, snd_pcm_hw_params_set_channels),
      SYMBOL(hw_params_set_rate_near, snd_pcm_hw_params_set_rate_near),
      SYMBOL(hw_params_set_buffer_time_near, snd_pcm_hw_params_set_buffer_time_near),
      SYMBOL(hw_params_set_period_size_near, snd_pcm_hw_params_set_period_size_near),
      SYMBOL(hw_params_get_buffer_size, snd_pcm_hw_params_get_buffer_size),
      SYMBOL(hw_params_get_period_size, snd_pcm_hw_params_get_period_size),
      SYMBOL(hw_params_get_rate, snd_pcm_hw_params_get_rate),
      SYMBOL(hw_params_get_channels, snd_pcm_hw_params_get_channels),
      SYMBOL(hw_params, snd_pcm_hw_params),
      SYMBOL(sw_params_malloc, snd_pcm_sw_params_malloc),
      SYMBOL(sw_params_free, snd_pcm_sw_params_free),
      SYMBOL(sw_params_current, snd_pcm_sw_params_current),
      SYMBOL(sw_params_set_start_threshold, snd_pcm_sw_params_set_start_threshold),
      SYMBOL(sw_params_set_avail_min, snd_pcm_sw_params_set_avail_min),
      SYMBOL(sw_params_set_tstamp_mode, snd_pcm_sw_params_set_tstamp_mode),
      SYMBOL(sw_params_set_tstamp_type, snd_pcm_sw_params_set_tstamp_type),
      SYMBOL(sw_params, snd_pcm_sw_params),
      SYMBOL(poll_descriptors_count, snd_pcm_poll_descriptors_count),
      SYMBOL(poll_descriptors, snd_pcm_poll_descriptors),
      SYMBOL(poll_descriptors_revents, snd_pcm_poll_descriptors_revents),
      SYMBOL(writei, snd_pcm_writei),
      SYMBOL(readi, snd_pcm_readi),
      SYMBOL(avail_update, snd_pcm_avail_update),
      SYMBOL(avail, snd_pcm_avail),
      SYMBOL(delay, snd_pcm_delay),
      SYMBOL(htimestamp, snd_pcm_htimestamp),
      SYMBOL(prepare, snd_pcm_prepare),
      SYMBOL(start, snd_pcm_start),
      SYMBOL(drop, snd_pcm_drop),
      SYMBOL(recover, snd_pcm_recover),
      SYMBOL(state, snd_pcm_state),
      SYMBOL(mixer_open, snd_mixer_open),
      SYMBOL(mixer_close, snd_mixer_close),
      SYMBOL(mixer_attach, snd_mixer_attach),
      SYMBOL(mixer_selem_register, snd_mixer_selem_register),
      SYMBOL(mixer_load, snd_mixer_load),
      SYMBOL(mixer_handle_events, snd_mixer_handle_events),
      SYMBOL(selem_id_malloc, snd_mixer_selem_id_malloc),
      SYMBOL(selem_id_free, snd_mixer_selem_id_free),
      SYMBOL(selem_id_set_name, snd_mixer_selem_id_set_name),
      SYMBOL(selem_id_set_index, snd_mixer_selem_id_set_index),
      SYMBOL(find_selem, snd_mixer_find_selem),
      SYMBOL(first_elem, snd_mixer_first_elem),
      SYMBOL(elem_next, snd_mixer_elem_next),
      SYMBOL(selem_get_name, snd_mixer_selem_get_name),
      SYMBOL(selem_has_playback_volume, snd_mixer_selem_has_playback_volume),
      SYMBOL(selem_get_playback_volume_range, snd_mixer_selem_get_playback_volume_range),
      SYMBOL(selem_get_playback_volume, snd_mixer_selem_get_playback_volume),
      SYMBOL(selem_set_playback_volume_all, snd_mixer_selem_set_playback_volume_all),
  };
#undef SYMBOL
  return cdl_load(&library, symbols, sizeof symbols / sizeof symbols[0], silence_errors,
                  message, size);
}

const char *calsa_strerror(int error) {
  if (cdl_loaded(&library)) return asound.strerror(error);
  return strerror(error < 0 ? -error : error);
}

#define PCM(pcm) ((snd_pcm_t *)(pcm))
#define LOADED_OR(value) \
  if (!cdl_loaded(&library)) return (value)

// MARK: PCM

int calsa_pcm_open(struct calsa_pcm **pcm, const char *name, int stream) {
  LOADED_OR(-ENOSYS);
  snd_pcm_t *handle = NULL;
  int result = asound.pcm_open(&handle, name, (snd_pcm_stream_t)stream, SND_PCM_NONBLOCK);
  if (result == 0) *pcm = (struct calsa_pcm *)handle;
  return result;
}

static int configure_hardware(snd_pcm_t *pcm, snd_pcm_hw_params_t *hw,
                              struct calsa_pcm_setup *setup) {
  int result;
  if ((result = asound.hw_params_any(pcm, hw)) < 0) return result;
  if ((result = asound.hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0)
    return result;
  if ((result = asound.hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)) < 0) return result;
  unsigned channels = setup->channels;
  if (channels == 0) {
    // Mono where the device takes it (a plug device always does); a card with only stereo
    // gets each sample on both channels from the caller.
    if (asound.hw_params_test_channels(pcm, hw, 1) == 0) {
      result = asound.hw_params_set_channels(pcm, hw, 1);
    } else {
      result = asound.hw_params_set_channels_first(pcm, hw, &channels);
    }
  } else {
    result = asound.hw_params_set_channels(pcm, hw, channels);
  }
  if (result < 0) return result;
  unsigned rate = setup->rate;
  if ((result = asound.hw_params_set_rate_near(pcm, hw, &rate, NULL)) < 0) return result;
  unsigned buffer_time = setup->buffer_time_us;
  if ((result = asound.hw_params_set_buffer_time_near(pcm, hw, &buffer_time, NULL)) < 0)
    return result;
  snd_pcm_uframes_t buffer = 0;
  if ((result = asound.hw_params_get_buffer_size(hw, &buffer)) < 0) return result;
  unsigned periods = setup->periods > 0 ? setup->periods : 4;
  snd_pcm_uframes_t period = buffer / periods > 0 ? buffer / periods : 1;
  if ((result = asound.hw_params_set_period_size_near(pcm, hw, &period, NULL)) < 0) return result;
  if ((result = asound.hw_params(pcm, hw)) < 0) return result;
  unsigned actual_rate = 0, actual_channels = 0;
  int direction = 0;
  if ((result = asound.hw_params_get_rate(hw, &actual_rate, &direction)) < 0) return result;
  if ((result = asound.hw_params_get_channels(hw, &actual_channels)) < 0) return result;
  if ((result = asound.hw_params_get_buffer_size(hw, &buffer)) < 0) return result;
  if ((result = asound.hw_params_get_period_size(hw, &period, &direction)) < 0) return result;
  setup->actual_rate = actual_rate;
  setup->actual_channels = actual_channels;
  setup->buffer_frames = buffer;
  setup->period_frames = period;
  return 0;
}

static int configure_software(snd_pcm_t *pcm, snd_pcm_sw_params_t *sw,
                              const struct calsa_pcm_setup *setup, unsigned long start_frames) {
  int result;
  if ((result = asound.sw_params_current(pcm, sw)) < 0) return result;
  if (start_frames == 0) start_frames = setup->buffer_frames;
  if ((result = asound.sw_params_set_start_threshold(pcm, sw, start_frames)) < 0) return result;
  if ((result = asound.sw_params_set_avail_min(pcm, sw, setup->period_frames)) < 0) return result;
  if ((result = asound.sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE)) < 0)
    return result;
  if ((result = asound.sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC)) < 0)
    return result;
  return asound.sw_params(pcm, sw);
}

int calsa_pcm_configure(struct calsa_pcm *pcm, struct calsa_pcm_setup *setup,
                        unsigned long start_frames) {
  LOADED_OR(-ENOSYS);
  snd_pcm_hw_params_t *hw = NULL;
  if (asound.hw_params_malloc(&hw) < 0) return -ENOMEM;
  int result = configure_hardware(PCM(pcm), hw, setup);
  asound.hw_params_free(hw);
  if (result < 0) return result;
  snd_pcm_sw_params_t *sw = NULL;
  if (asound.sw_params_malloc(&sw) < 0) return -ENOMEM;
  result = configure_software(PCM(pcm), sw, setup, start_frames);
  asound.sw_params_free(sw);
  return result;
}

int calsa_pcm_close(struct calsa_pcm *pcm) {
  LOADED_OR(-ENOSYS);
  return asound.pcm_close(PCM(pcm));
}

int calsa_pcm_poll_descriptors_count(struct calsa_pcm *pcm) {
  LOADED_OR(-ENOSYS);
  return asound.poll_descriptors_count(PCM(pcm));
}

int calsa_pcm_poll_descriptors(struct calsa_pcm *pcm, struct calsa_pollfd *fds, unsigned space) {
  LOADED_OR(-ENOSYS);
  return asound.poll_descriptors(PCM(pcm), (struct pollfd *)fds, space);
}

int calsa_pcm_poll_descriptors_revents(struct calsa_pcm *pcm, struct calsa_pollfd *fds,
                                       unsigned count, unsigned short *revents) {
  LOADED_OR(-ENOSYS);
  return asound.poll_descriptors_revents(PCM(pcm), (struct pollfd *)fds, count, revents);
}

long calsa_pcm_writei(struct calsa_pcm *pcm, const int16_t *samples, unsigned long frames) {
  LOADED_OR(-ENOSYS);
  return asound.writei(PCM(pcm), samples, frames);
}

long calsa_pcm_readi(struct calsa_pcm *pcm, int16_t *samples, unsigned long frames) {
  LOADED_OR(-ENOSYS);
  return asound.readi(PCM(pcm), samples, frames);
}

long calsa_pcm_avail_update(struct calsa_pcm *pcm) {
  LOADED_OR(-ENOSYS);
  return asound.avail_update(PCM(pcm));
}

int calsa_pcm_delay(struct calsa_pcm *pcm, long *frames) {
  LOADED_OR(-ENOSYS);
  snd_pcm_sframes_t delay = 0;
  int result = asound.delay(PCM(pcm), &delay);
  if (result == 0) *frames = delay;
  return result;
}

int calsa_pcm_htimestamp(struct calsa_pcm *pcm, unsigned long *avail, int64_t *nanoseconds) {
  LOADED_OR(-ENOSYS);
  // The pointer is read from the card first (snd_pcm_avail syncs it: SNDRV_PCM_IOCTL_HWSYNC),
  // so the pair is stamped now. Without it, snd_pcm_htimestamp returns the pair the kernel last
  // wrote on its own, at the card's period interrupt (snd-aloop: its timer softirq): a busy
  // machine runs that late, and then every pair says the frames are heard late by as much.
  snd_pcm_sframes_t synced = asound.avail(PCM(pcm));
  if (synced < 0) return (int)synced;
  snd_pcm_uframes_t frames = 0;
  snd_htimestamp_t stamp = {0, 0};
  int result = asound.htimestamp(PCM(pcm), &frames, &stamp);
  if (result == 0) {
    *avail = frames;
    *nanoseconds = (int64_t)stamp.tv_sec * 1000000000 + stamp.tv_nsec;
  }
  return result;
}

int calsa_pcm_prepare(struct calsa_pcm *pcm) {
  LOADED_OR(-ENOSYS);
  return asound.prepare(PCM(pcm));
}

int calsa_pcm_start(struct calsa_pcm *pcm) {
  LOADED_OR(-ENOSYS);
  return asound.start(PCM(pcm));
}

int calsa_pcm_drop(struct calsa_pcm *pcm) {
  LOADED_OR(-ENOSYS);
  return asound.drop(PCM(pcm));
}

int calsa_pcm_recover(struct calsa_pcm *pcm, int error) {
  LOADED_OR(-ENOSYS);
  return asound.recover(PCM(pcm), error, 1);
}

int calsa_pcm_state(struct calsa_pcm *pcm) {
  LOADED_OR(-ENOSYS);
  return (int)asound.state(PCM(pcm));
}

// MARK: mixer

#define MIXER(mixer) ((snd_mixer_t *)(mixer))
#define ELEMENT(control) ((snd_mixer_elem_t *)(control))

int calsa_mixer_open(struct calsa_mixer **mixer, const char *card) {
  LOADED_OR(-ENOSYS);
  snd_mixer_t *handle = NULL;
  int result = asound.mixer_open(&handle, 0);
  if (result < 0) return result;
  if ((result = asound.mixer_attach(handle, card)) < 0 ||
      (result = asound.mixer_selem_register(handle, NULL, NULL)) < 0 ||
      (result = asound.mixer_load(handle)) < 0) {
    asound.mixer_close(handle);
    return result;
  }
  *mixer = (struct calsa_mixer *)handle;
  return 0;
}

int calsa_mixer_close(struct calsa_mixer *mixer) {
  LOADED_OR(-ENOSYS);
  return asound.mixer_close(MIXER(mixer));
}

int calsa_mixer_handle_events(struct calsa_mixer *mixer) {
  LOADED_OR(-ENOSYS);
  return asound.mixer_handle_events(MIXER(mixer));
}

struct calsa_mixer_control *calsa_mixer_find(struct calsa_mixer *mixer, const char *name,
                                             unsigned index) {
  if (!cdl_loaded(&library)) return NULL;
  snd_mixer_selem_id_t *id = NULL;
  if (asound.selem_id_malloc(&id) < 0) return NULL;
  asound.selem_id_set_name(id, name);
  asound.selem_id_set_index(id, index);
  snd_mixer_elem_t *element = asound.find_selem(MIXER(mixer), id);
  asound.selem_id_free(id);
  if (element == NULL || !asound.selem_has_playback_volume(element)) return NULL;
  return (struct calsa_mixer_control *)element;
}

int calsa_mixer_playback_names(struct calsa_mixer *mixer, char *names, size_t size) {
  LOADED_OR(-ENOSYS);
  int count = 0;
  size_t used = 0;
  for (snd_mixer_elem_t *element = asound.first_elem(MIXER(mixer)); element != NULL;
       element = asound.elem_next(element)) {
    if (!asound.selem_has_playback_volume(element)) continue;
    const char *name = asound.selem_get_name(element);
    size_t length = strlen(name) + 1;
    if (used + length > size) break;
    memcpy(names + used, name, length);
    used += length;
    count += 1;
  }
  return count;
}

int calsa_mixer_volume_range(struct calsa_mixer_control *control, long *minimum,
                             long *maximum) {
  LOADED_OR(-ENOSYS);
  return asound.selem_get_playback_volume_range(ELEMENT(control), minimum, maximum);
}

int calsa_mixer_volume(struct calsa_mixer_control *control, long *volume) {
  LOADED_OR(-ENOSYS);
  return asound.selem_get_playback_volume(ELEMENT(control), SND_MIXER_SCHN_FRONT_LEFT, volume);
}

int calsa_mixer_set_volume(struct calsa_mixer_control *control, long volume) {
  LOADED_OR(-ENOSYS);
  return asound.selem_set_playback_volume_all(ELEMENT(control), volume);
}
