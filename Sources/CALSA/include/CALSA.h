// SPDX-License-Identifier: MIT
// ALSA (libasound 1.2.8, Debian's libasound2) for HardwareKit's ALSAPlayback, ALSACapture and
// ALSAMixer, loaded on demand with dlopen and given to Swift as a handful of plain functions.
//
// Why not linked: see CALSA.c. Every function here returns what the ALSA call it wraps returns:
// a count or 0 on success, a negative errno (or an ALSA error past SND_ERROR_BEGIN) on failure;
// calsa_strerror gives ALSA's text for either. Nothing blocks: PCMs are opened with
// SND_PCM_NONBLOCK and there is no drain.
#ifndef WODCLOCK_CALSA_H
#define WODCLOCK_CALSA_H

#include <stddef.h>
#include <stdint.h>

struct calsa_pcm;
struct calsa_mixer;

/// <poll.h>'s struct pollfd, field for field (checked in CALSA.c); declared here so that this
/// module does not claim the system's type from Swift's view.
struct calsa_pollfd {
  int fd;
  short events;
  short revents;
};
struct calsa_mixer_control;

/// Loads libasound.so.2 and resolves the functions used here, once; later calls return the
/// first outcome. 0 on success; -1 with the loader's message in `message` (NUL-terminated, cut
/// to `size`). ALSA's own messages to standard error are silenced: every failure comes back as
/// a code and is reported by the caller.
int calsa_load(char *message, size_t size);

/// ALSA's description of an error code (negative errno or ALSA's own), never NULL.
const char *calsa_strerror(int error);

// MARK: PCM

enum {
  CALSA_PLAYBACK = 0,
  CALSA_CAPTURE = 1,
};

/// snd_pcm_state_t's values, checked against the header in CALSA.c.
enum {
  CALSA_STATE_OPEN = 0,
  CALSA_STATE_SETUP = 1,
  CALSA_STATE_PREPARED = 2,
  CALSA_STATE_RUNNING = 3,
  CALSA_STATE_XRUN = 4,
  CALSA_STATE_DRAINING = 5,
  CALSA_STATE_PAUSED = 6,
  CALSA_STATE_SUSPENDED = 7,
  CALSA_STATE_DISCONNECTED = 8,
};

/// What calsa_pcm_configure asks for (the first group) and what the device gave (the second).
struct calsa_pcm_setup {
  /// Frames per second asked (snd_pcm_hw_params_set_rate_near).
  unsigned rate;
  /// Channels asked; 0 takes mono when the device has it, else its fewest.
  unsigned channels;
  /// The buffer's length asked, in microseconds (snd_pcm_hw_params_set_buffer_time_near).
  unsigned buffer_time_us;
  /// Periods per buffer asked (the period is how often the writer is woken).
  unsigned periods;
  /// Given: the rate, the channels, the buffer and the period in frames.
  unsigned actual_rate;
  unsigned actual_channels;
  unsigned long buffer_frames;
  unsigned long period_frames;
};

/// Opens a PCM by ALSA name (`default`, `hw:1,0`, `plughw:CARD=Device`) for `stream`
/// (CALSA_PLAYBACK or CALSA_CAPTURE), non-blocking. On success *pcm is set.
int calsa_pcm_open(struct calsa_pcm **pcm, const char *name, int stream);

/// Sets the hardware parameters (interleaved S16_LE, the rate, channels, buffer and period of
/// `setup`, filling in what was given) and the software ones: the stream starts when
/// `start_frames` are queued (0: a full buffer), the poll descriptors report writable
/// (readable for capture) once `period_frames` are free (filled), and timestamps are taken on
/// the monotonic clock.
int calsa_pcm_configure(struct calsa_pcm *pcm, struct calsa_pcm_setup *setup,
                        unsigned long start_frames);

int calsa_pcm_close(struct calsa_pcm *pcm);
int calsa_pcm_poll_descriptors_count(struct calsa_pcm *pcm);
int calsa_pcm_poll_descriptors(struct calsa_pcm *pcm, struct calsa_pollfd *fds, unsigned space);
int calsa_pcm_poll_descriptors_revents(struct calsa_pcm *pcm, struct calsa_pollfd *fds,
                                       unsigned count, unsigned short *revents);
/// Interleaved frames of S16 samples, `channels` samples each.
long calsa_pcm_writei(struct calsa_pcm *pcm, const int16_t *samples, unsigned long frames);
long calsa_pcm_readi(struct calsa_pcm *pcm, int16_t *samples, unsigned long frames);
long calsa_pcm_avail_update(struct calsa_pcm *pcm);
int calsa_pcm_delay(struct calsa_pcm *pcm, long *frames);
/// The frames free (playback) or filled (capture) and the CLOCK_MONOTONIC instant, in
/// nanoseconds, at which the device's pointer was read for that count: read now (snd_pcm_avail,
/// then snd_pcm_htimestamp).
int calsa_pcm_htimestamp(struct calsa_pcm *pcm, unsigned long *avail, int64_t *nanoseconds);
int calsa_pcm_prepare(struct calsa_pcm *pcm);
int calsa_pcm_start(struct calsa_pcm *pcm);
int calsa_pcm_drop(struct calsa_pcm *pcm);
/// snd_pcm_recover, silently: after -EPIPE (an underrun or overrun) or -ESTRPIPE (suspended).
int calsa_pcm_recover(struct calsa_pcm *pcm, int error);
int calsa_pcm_state(struct calsa_pcm *pcm);

// MARK: mixer

/// Opens the simple mixer of a card (`default`, `hw:1`), loaded with its controls.
int calsa_mixer_open(struct calsa_mixer **mixer, const char *card);
int calsa_mixer_close(struct calsa_mixer *mixer);
/// Processes pending events, so the controls' values are current (never waits).
int calsa_mixer_handle_events(struct calsa_mixer *mixer);
/// The playback control called `name` (index `index`), or NULL; it lives as long as the mixer.
struct calsa_mixer_control *calsa_mixer_find(struct calsa_mixer *mixer, const char *name,
                                             unsigned index);
/// The names of the mixer's controls with a playback volume, one after another, each
/// NUL-terminated, cut to `size`; returns the count.
int calsa_mixer_playback_names(struct calsa_mixer *mixer, char *names, size_t size);
int calsa_mixer_volume_range(struct calsa_mixer_control *control, long *minimum,
                             long *maximum);
/// The volume of the control's first channel.
int calsa_mixer_volume(struct calsa_mixer_control *control, long *volume);
/// Sets every channel's volume.
int calsa_mixer_set_volume(struct calsa_mixer_control *control, long volume);

#endif
