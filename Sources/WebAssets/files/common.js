// SPDX-License-Identifier: MIT
// What the display and the remote share: the server's clock, the digits' law, the event stream
// and the face drawn from it. Plain script (no modules, no optional chaining) so that the older
// browsers of TV sticks and tablets run it too; everything lives under window.Wodclock.
"use strict";

(function () {
  var Wodclock = {};

  // ---- The server's clock ------------------------------------------------------------------
  // A ping of GET /api/time, t0 and t1 being performance.now() around it, proves that the
  // offset (server_ms minus performance.now()) lies in [server_ms - t1, server_ms - t0]: the
  // server read its clock somewhere between the two. The estimate is the middle of the
  // tightest such interval among the last 8 pings that agree with the newest one (their
  // intervals overlap it). A ping that waited on a stopped or busy server, or on a busy page,
  // has a wide interval and never displaces a tight one; an old ping that no longer agrees
  // (the device slept and performance.now() stood still, or the clocks drifted apart) is
  // dropped. Pinged every 30 s and after every reconnect. The page draws from
  // performance.now() + offset: it never counts ticks, and the device's own wall clock (Date)
  // is never read.
  var PING_SAMPLES = 8;
  var samples = [];
  var offsetMs = null;
  var pinging = false;

  /// The samples kept after `sample` ({low, high, rtt}, the bounds in ms) is added: those that
  /// overlap it (1 ms of slack for the server's whole milliseconds), the newest 8.
  function keepSamples(kept, sample) {
    var result = [];
    for (var i = 0; i < kept.length; i++) {
      var old = kept[i];
      if (old.low <= sample.high + 1 && sample.low <= old.high + 1) result.push(old);
    }
    result.push(sample);
    while (result.length > PING_SAMPLES) result.shift();
    return result;
  }

  /// The offset the samples give: the middle of the one with the smallest round trip.
  function bestOffset(kept) {
    if (kept.length === 0) return null;
    var best = kept[0];
    for (var i = 1; i < kept.length; i++) if (kept[i].rtt < best.rtt) best = kept[i];
    return (best.low + best.high) / 2;
  }

  function ping() {
    if (pinging) return Promise.resolve();
    pinging = true;
    var t0 = performance.now();
    return fetch("/api/time", { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        var t1 = performance.now();
        if (!body || typeof body.server_ms !== "number" || !isFinite(body.server_ms)) return;
        var sample = { low: body.server_ms - t1, high: body.server_ms - t0, rtt: t1 - t0 };
        samples = keepSamples(samples, sample);
        offsetMs = bestOffset(samples);
      })
      .catch(function () { /* the next ping or reconnect tries again */ })
      .then(function () { pinging = false; });
  }

  /// A few pings in a row (at start and after a reconnect), a ping in flight counting as the
  /// first: the tightest of them counts.
  function pingBurst() {
    var count = 0;
    function next() {
      ping().then(function () { if (++count < 4) setTimeout(next, 150); });
    }
    next();
  }

  Wodclock.clock = {
    ping: ping,
    pingBurst: pingBurst,
    keepSamples: keepSamples,
    bestOffset: bestOffset,
    /// The server's time now, in its milliseconds; before the first ping, null.
    now: function () { return offsetMs === null ? null : performance.now() + offsetMs; },
    offsetMs: function () { return offsetMs; },
    start: function () {
      pingBurst();
      setInterval(ping, 30000);
    },
  };

  // ---- The digits' law (web contract: "The clock a page draws from") ----------------------
  /// The figure of a law ({value_s or value, rate, until_ms, direction}) at server time `at`:
  /// value ± rate × (min(at, until_ms) − server_ms) / 1000 (minus counting down; progress
  /// only grows), clamped at 0.
  function lawValue(law, serverMs, at, key) {
    var value = law[key];
    if (typeof value !== "number") return null;
    if (at === null || !law.rate) return value;
    var until = typeof law.until_ms === "number" ? Math.min(at, law.until_ms) : at;
    var delta = (law.rate * Math.max(0, until - serverMs)) / 1000;
    var result = law.direction === "up" || key === "value" ? value + delta : value - delta;
    return Math.max(0, result);
  }

  function twoDigits(n) { return n < 10 ? "0" + n : "" + n; }

  /// `m:ss` under an hour (minutes without a leading zero), `h:mm:ss` from an hour: the
  /// daemon's TimeText.format.
  function formatSeconds(total) {
    var s = Math.max(0, Math.floor(total));
    var hours = Math.floor(s / 3600);
    var minutes = Math.floor(s / 60) % 60;
    var seconds = s % 60;
    if (hours > 0) return hours + ":" + twoDigits(minutes) + ":" + twoDigits(seconds);
    return minutes + ":" + twoDigits(seconds);
  }

  /// The big digits at server time `at`: counting down shows the ceiling of the remaining
  /// seconds, counting up the floor of the elapsed ones (the product guide's rule). A tiny
  /// tolerance keeps 37.000000001 from showing 38 through floating-point noise.
  function digitsText(clock, at) {
    var law = clock && clock.digits;
    if (!law) return null;
    var value = lawValue(law, clock.server_ms, at, "value_s");
    if (value === null) return null;
    var whole = law.direction === "up" ? Math.floor(value + 1e-6) : Math.ceil(value - 1e-6);
    return formatSeconds(whole);
  }

  /// The progress bar's fraction 0…1 at server time `at`, or null when there is none.
  function progressValue(clock, at) {
    var law = clock && clock.progress;
    if (!law) return null;
    var value = lawValue(law, clock.server_ms, at, "value");
    return value === null ? null : Math.min(1, Math.max(0, value));
  }

  /// The gym's time of day at server time `at`: from the daemon's wall clock and zone offset,
  /// never from this device's Date(). Returns {digits, meridiem} as DisplayKit's TimeText.clock
  /// writes them: `06:10` / `06:10:05` on 24 hours, `6:10` + `AM` on 12.
  function timeOfDay(clock, face, at) {
    if (!clock || typeof clock.wall_ms !== "number") return null;
    var elapsed = at === null ? 0 : at - clock.server_ms;
    var local = clock.wall_ms + elapsed + (clock.utc_offset_s || 0) * 1000;
    var day = 86400;
    var secondOfDay = ((Math.floor(local / 1000) % day) + day) % day;
    var hour = Math.floor(secondOfDay / 3600);
    var minute = Math.floor(secondOfDay / 60) % 60;
    var second = secondOfDay % 60;
    var settings = (face && face.clock_face) || { twenty_four_hour: true, show_seconds: false };
    var text;
    var meridiem = null;
    if (settings.twenty_four_hour) {
      text = twoDigits(hour);
    } else {
      text = "" + (hour % 12 === 0 ? 12 : hour % 12);
      meridiem = hour < 12 ? "AM" : "PM";
    }
    text += ":" + twoDigits(minute);
    if (settings.show_seconds) text += ":" + twoDigits(second);
    return { digits: text, meridiem: meridiem };
  }

  Wodclock.formatSeconds = formatSeconds;
  Wodclock.digitsText = digitsText;
  Wodclock.progressValue = progressValue;
  Wodclock.timeOfDay = timeOfDay;

  // ---- The event stream ---------------------------------------------------------------------
  // EventSource on /api/events: `status` and `cue` events carry ids, `heartbeat` none. With
  // nothing received for 5 s the page is offline; EventSource reconnects by itself (the server
  // says `retry: 2000`), and a stream the browser gave up on (an HTTP error such as 503 when
  // too many streams are open) is opened again here. Each (re)connection pings the clock again
  // and the server's first event is a fresh status.
  var SILENCE_MS = 5000;

  function EventFeed(handlers) {
    this.handlers = handlers;
    this.source = null;
    this.lastMessageAt = null;
    this.lastEventId = null;
    this.connectedOnce = false;
    this.openedAt = 0;
    var feed = this;
    this.silenceTimer = setInterval(function () { feed.checkSilence(); }, 250);
  }

  /// Closes the stream for good (the remote signed out).
  EventFeed.prototype.close = function () {
    clearInterval(this.silenceTimer);
    if (this.source) this.source.close();
    this.source = null;
  };

  EventFeed.prototype.connect = function () {
    var feed = this;
    if (typeof EventSource === "undefined") {
      if (feed.handlers.unsupported) feed.handlers.unsupported();
      return;
    }
    var source = new EventSource("/api/events");
    feed.source = source;
    feed.openedAt = performance.now();
    source.addEventListener("open", function () {
      if (feed.connectedOnce) Wodclock.clock.pingBurst();
      feed.connectedOnce = true;
    });
    source.addEventListener("status", function (event) { feed.receive(event, "status"); });
    source.addEventListener("cue", function (event) { feed.receive(event, "cue"); });
    source.addEventListener("heartbeat", function (event) { feed.receive(event, "heartbeat"); });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(function () { if (feed.source === source) feed.connect(); }, 3000);
      }
    });
  };

  EventFeed.prototype.receive = function (event, kind) {
    var payload;
    try {
      payload = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    this.lastMessageAt = performance.now();
    if (event.lastEventId) {
      var id = Number(event.lastEventId);
      if (isFinite(id)) this.lastEventId = id;
    }
    var handler = this.handlers[kind];
    if (handler) handler(payload);
    // Online again the moment a message arrives (after the handler took it in), not at the
    // next silence check: a page back from offline draws the live time at once instead of
    // showing its frozen digits for up to a check's interval.
    this.report(false);
  };

  /// Tells the page when the feed goes offline or comes back, once per change.
  EventFeed.prototype.report = function (offline) {
    if (offline === this.reportedOffline) return;
    this.reportedOffline = offline;
    if (this.handlers.offline) this.handlers.offline(offline);
  };

  /// Offline: nothing received for 5 s, or nothing ever received.
  EventFeed.prototype.isOffline = function () {
    return this.lastMessageAt === null || performance.now() - this.lastMessageAt > SILENCE_MS;
  };

  EventFeed.prototype.checkSilence = function () {
    var offline = this.isOffline();
    this.report(offline);
    // A stream that went silent without closing (Wi-Fi lost, a half-open connection) raises no
    // error: it is opened anew every 5 s of silence, which is what EventSource would do for
    // a closed one.
    var now = performance.now();
    if (offline && this.source && this.lastMessageAt !== null
      && now - Math.max(this.lastMessageAt, this.openedAt) > SILENCE_MS) {
      this.source.close();
      this.connect();
    }
  };

  Wodclock.EventFeed = EventFeed;

  // ---- Small helpers ------------------------------------------------------------------------
  /// Sets an element's text only when it changed (the DOM is touched once a second, not on
  /// every frame).
  Wodclock.setText = function (element, text) {
    var value = text === null || text === undefined ? "" : String(text);
    if (element.textContent !== value) element.textContent = value;
  };

  Wodclock.show = function (element, visible) {
    if (element.hidden === !!visible) element.hidden = !visible;
  };

  /// A colour the server sent, or the fallback: only `#rrggbb` is taken, so nothing a page is
  /// sent can inject CSS.
  Wodclock.colour = function (value, fallback) {
    return typeof value === "string" && /^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback;
  };

  /// The face's colours as the page's CSS custom properties (the design tokens' defaults when
  /// a colour is missing or not `#rrggbb`).
  Wodclock.applyColours = function (face) {
    var root = document.documentElement.style;
    root.setProperty("--face-color", Wodclock.colour(face.color, "#ffffff"));
    root.setProperty("--face-background", Wodclock.colour(face.background, "#000000"));
    root.setProperty("--face-caption", Wodclock.colour(face.caption_color, "#b8bec6"));
    root.setProperty("--face-progress", Wodclock.colour(face.progress_color, "#1ed6b4"));
    root.setProperty("--face-warning", Wodclock.colour(face.warning_color, "#ff7a1a"));
  };

  window.Wodclock = Wodclock;
})();
