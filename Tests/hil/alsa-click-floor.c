// SPDX-License-Identifier: MIT
// The floor for wodclock-sound-check: the same clicks at the same absolute deadlines, played
// and recorded the same way (non-blocking PCMs, a 20 ms buffer in four periods, the next
// frame written heard at now + snd_pcm_delay / rate, the capture clock estimated from
// snd_pcm_htimestamp), but in a bare C loop over poll(2), linked with -lasound: what the card
// and the kernel allow, without the daemon's code in the way.
//
// Usage: alsa-click-floor [PLAYBACK [CAPTURE [CLICKS [INTERVAL_MS]]]]
//        (default hw:Loopback,0,0 hw:Loopback,1,0 120 50)
// Prints the figures like wodclock-sound-check; exits 1 when a click was not found within
// 50 ms of its deadline.

#define _GNU_SOURCE
#include <alsa/asoundlib.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RATE 48000
#define CLICK_FRAMES 96
#define MAX_CLICKS 10000

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void die(const char *what, int error) {
  fprintf(stderr, "alsa-click-floor: %s: %s\n", what, snd_strerror(error));
  exit(2);
}

static snd_pcm_t *open_pcm(const char *name, snd_pcm_stream_t stream, unsigned buffer_us,
                           snd_pcm_uframes_t *buffer, unsigned *channels) {
  snd_pcm_t *pcm;
  int error = snd_pcm_open(&pcm, name, stream, SND_PCM_NONBLOCK);
  if (error < 0) die(name, error);
  snd_pcm_hw_params_t *hw;
  snd_pcm_hw_params_alloca(&hw);
  snd_pcm_hw_params_any(pcm, hw);
  snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED);
  snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE);
  if (*channels == 0) {
    if (snd_pcm_hw_params_test_channels(pcm, hw, 1) == 0) {
      *channels = 1;
    } else {
      snd_pcm_hw_params_set_channels_first(pcm, hw, channels);
    }
  }
  if ((error = snd_pcm_hw_params_set_channels(pcm, hw, *channels)) < 0) die("channels", error);
  unsigned rate = RATE;
  if ((error = snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, NULL)) < 0) die("rate", error);
  if ((error = snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &buffer_us, NULL)) < 0)
    die("buffer", error);
  snd_pcm_hw_params_get_buffer_size(hw, buffer);
  snd_pcm_uframes_t period = *buffer / 4;
  snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, NULL);
  if ((error = snd_pcm_hw_params(pcm, hw)) < 0) die("hw params", error);
  snd_pcm_hw_params_get_buffer_size(hw, buffer);
  snd_pcm_hw_params_get_period_size(hw, &period, NULL);
  snd_pcm_sw_params_t *sw;
  snd_pcm_sw_params_alloca(&sw);
  snd_pcm_sw_params_current(pcm, sw);
  snd_pcm_sw_params_set_start_threshold(pcm, sw, *buffer);
  snd_pcm_sw_params_set_avail_min(pcm, sw, period);
  snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE);
  snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC);
  if ((error = snd_pcm_sw_params(pcm, sw)) < 0) die("sw params", error);
  return pcm;
}

static int compare(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *playback_name = argc > 1 ? argv[1] : "hw:Loopback,0,0";
  const char *capture_name = argc > 2 ? argv[2] : "hw:Loopback,1,0";
  int clicks = argc > 3 ? atoi(argv[3]) : 120;
  int64_t interval = (argc > 4 ? atoi(argv[4]) : 50) * 1000000LL;
  if (clicks < 1 || clicks > MAX_CLICKS || interval <= 0) {
    fprintf(stderr, "alsa-click-floor: bad arguments\n");
    return 64;
  }
  snd_pcm_uframes_t buffer, capture_buffer;
  unsigned channels = 0;
  snd_pcm_t *playback = open_pcm(playback_name, SND_PCM_STREAM_PLAYBACK, 20000, &buffer, &channels);
  snd_pcm_t *capture =
      open_pcm(capture_name, SND_PCM_STREAM_CAPTURE, 200000, &capture_buffer, &channels);

  static int64_t deadlines[MAX_CLICKS], onsets[MAX_CLICKS * 2], lateness[MAX_CLICKS];
  int64_t first = now_ns() + 200000000;
  for (int i = 0; i < clicks; i++) deadlines[i] = first + i * interval;
  int64_t end = deadlines[clicks - 1] + 300000000;
  size_t recording_size = (size_t)((end - now_ns()) / 1000000000 + 2) * RATE;
  int16_t *recording = calloc(recording_size, sizeof *recording);
  int16_t *chunk = calloc(buffer * channels, sizeof *chunk);
  int16_t *frames = calloc(capture_buffer * channels, sizeof *frames);
  size_t recorded = 0;
  int64_t origin = INT64_MAX, written = 0, click_start = -1;
  int next_click = 0, underruns = 0, overruns = 0;

  struct pollfd fds[16];
  int playback_count = snd_pcm_poll_descriptors(playback, fds, 8);
  int capture_count = snd_pcm_poll_descriptors(capture, fds + playback_count, 8);
  snd_pcm_start(capture);
  int filled_once = 0;
  while (now_ns() < end) {
    unsigned short revents = 0;
    if (filled_once) {
      if (poll(fds, playback_count + capture_count, 50) < 0) continue;
      snd_pcm_poll_descriptors_revents(playback, fds, playback_count, &revents);
    }
    if (!filled_once || (revents & (POLLOUT | POLLERR))) {
      filled_once = 1;
      snd_pcm_sframes_t free_frames = snd_pcm_avail_update(playback);
      if (free_frames < 0) {
        snd_pcm_recover(playback, (int)free_frames, 1);
        underruns++;
        continue;
      }
      if ((snd_pcm_uframes_t)free_frames > buffer) free_frames = buffer;
      snd_pcm_sframes_t delay = 0;
      snd_pcm_delay(playback, &delay);
      int64_t heard_at = now_ns() + (int64_t)delay * 1000000000 / RATE;
      int64_t chunk_end = heard_at + (int64_t)free_frames * 1000000000 / RATE;
      while (next_click < clicks && deadlines[next_click] < chunk_end && click_start < 0) {
        int64_t offset = (deadlines[next_click] - heard_at) * RATE / 1000000000;
        click_start = written + (offset > 0 ? offset : 0);
        next_click++;
      }
      for (snd_pcm_sframes_t i = 0; i < free_frames; i++) {
        int64_t frame = written + i, position = frame - click_start;
        int16_t sample = 0;
        if (click_start >= 0 && position >= 0 && position < CLICK_FRAMES)
          sample = (position / 6) % 2 == 0 ? 12000 : -12000;
        for (unsigned c = 0; c < channels; c++) chunk[i * channels + c] = sample;
      }
      snd_pcm_sframes_t taken = snd_pcm_writei(playback, chunk, free_frames);
      if (taken < 0) {
        if (taken != -EAGAIN) {
          snd_pcm_recover(playback, (int)taken, 1);
          underruns++;
        }
      } else {
        written += taken;
      }
      if (click_start >= 0 && written >= click_start + CLICK_FRAMES) click_start = -1;
    }
    revents = 0;
    snd_pcm_poll_descriptors_revents(capture, fds + playback_count, capture_count, &revents);
    if (revents & (POLLIN | POLLERR)) {
      snd_pcm_sframes_t got = snd_pcm_readi(capture, frames, capture_buffer);
      if (got < 0 && got != -EAGAIN) {
        snd_pcm_recover(capture, (int)got, 1);
        snd_pcm_start(capture);
        overruns++;
      }
      for (snd_pcm_sframes_t i = 0; i < got && recorded < recording_size; i++)
        recording[recorded++] = frames[i * channels];
      snd_pcm_uframes_t held = 0;
      snd_htimestamp_t stamp;
      if (got > 0 && snd_pcm_htimestamp(capture, &held, &stamp) == 0 && stamp.tv_sec > 0) {
        int64_t instant = (int64_t)stamp.tv_sec * 1000000000 + stamp.tv_nsec;
        int64_t estimate = instant - (int64_t)(recorded + held) * 1000000000 / RATE;
        if (estimate < origin) origin = estimate;
      }
    }
  }

  int onset_count = 0;
  int64_t last_loud = -1000000;
  for (size_t i = 0; i < recorded && onset_count < MAX_CLICKS * 2; i++) {
    if (abs(recording[i]) <= 2000) continue;
    if ((int64_t)i - last_loud > RATE / 200)
      onsets[onset_count++] = origin + (int64_t)i * 1000000000 / RATE;
    last_loud = (int64_t)i;
  }
  int matched = 0, next_onset = 0;
  const int64_t bound = 50000000;
  for (int i = 0; i < clicks; i++) {
    while (next_onset < onset_count && onsets[next_onset] < deadlines[i] - bound) next_onset++;
    if (next_onset >= onset_count || onsets[next_onset] > deadlines[i] + bound) break;
    lateness[matched++] = onsets[next_onset++] - deadlines[i];
  }
  if (matched != clicks) {
    printf("FAIL: floor: %d of %d clicks found, %d onsets heard\n", matched, clicks, onset_count);
    return 1;
  }
  // The signed median (negative is early), then p50, p99 and the largest distance either way.
  qsort(lateness, matched, sizeof lateness[0], compare);
  int64_t median = lateness[matched / 2];
  for (int i = 0; i < matched; i++) lateness[i] = lateness[i] < 0 ? -lateness[i] : lateness[i];
  qsort(lateness, matched, sizeof lateness[0], compare);
  int p99 = matched * 99 / 100 < matched ? matched * 99 / 100 : matched - 1;
  printf("floor: onset minus deadline over %d clicks: median %.2f ms; |onset - deadline| p50 "
         "%.2f ms, p99 %.2f ms, max %.2f ms; buffer %lu frames, %u channel(s); underruns %d, "
         "overruns %d\n",
         matched, median / 1e6, lateness[matched / 2] / 1e6, lateness[p99] / 1e6,
         lateness[matched - 1] / 1e6, (unsigned long)buffer, channels, underruns, overruns);
  snd_pcm_close(playback);
  snd_pcm_close(capture);
  return 0;
}
