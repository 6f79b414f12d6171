// SPDX-License-Identifier: MIT
// The display at `/`: the clock for a TV, a tablet or a kiosk, read-only. It draws on every
// animation frame from the server's clock (performance.now() + the pinged offset) and the laws
// of the last status event; the cues become beeps on the audio clock and screen flashes.
// URL parameters: `?sound=1` starts the sound at load (a kiosk started with
// --autoplay-policy=no-user-gesture-required), `?flash=0` turns the flashes off. A kiosk on a TV
// stick or the Pi's HDMI:
//   chromium --kiosk --noerrdialogs --disable-infobars --autoplay-policy=no-user-gesture-required \
//     "http://CLOCK:8080/?sound=1"
"use strict";

(function () {
  var W = window.Wodclock;
  var params = new URLSearchParams(location.search);
  var flashEnabled = params.get("flash") !== "0";

  var el = {};
  [
    "face", "word", "rounds", "middle", "digits", "meridiem", "track", "track-line", "track-dot",
    "message", "label", "idle-note", "progress", "progress-fill", "flash", "sign", "muted",
    "controls", "sound", "fullscreen", "board", "board-lines", "media", "next", "lanes",
    "lane-rows", "callup", "callup-title", "callup-count", "callup-lanes", "standings",
    "standings-title", "standings-clock", "standings-body",
  ].forEach(function (id) { el[id] = document.getElementById(id); });
  var trackValues = Array.prototype.slice.call(document.querySelectorAll(".track-value"));

  /// The last status event: {status, clock, face}.
  var current = null;
  var offline = true;
  /// The server instant the last frame was drawn for (test hook).
  var drawnAt = null;
  /// What was drawn when the page went offline: shown dimmed and still, never as a moving time.
  var frozenDigits = "";
  var drawn = { digits: "", word: "", progress: -1, dot: -1 };

  var feed = new W.EventFeed({
    status: function (payload) {
      if (!payload || !payload.face || !payload.clock) return;
      var previous = current;
      current = payload;
      applyFace(payload.face, previous && previous.face);
      applyHeat(payload.status || {});
      // Drawn at once, not at the next animation frame: a press shows the moment its status
      // arrives, and a page back from offline never shows its frozen digits beside live ones.
      draw();
    },
    cue: function (payload) { if (payload && payload.cue) cue(payload); },
    heartbeat: function () {},
    offline: function (isOffline) {
      offline = isOffline;
      if (isOffline) frozenDigits = drawn.digits;
      document.body.classList.toggle("offline", isOffline);
      W.setText(el.sign, feed.connectedOnce ? "offline — reconnecting" : "connecting…");
      W.show(el.sign, isOffline);
      draw();
    },
    unsupported: function () {
      W.setText(el.sign, "this browser cannot show the live clock (no EventSource)");
      W.show(el.sign, true);
    },
  });

  // ---- What changes with a status event -----------------------------------------------------
  function applyFace(face, previousFace) {
    W.applyColours(face);
    W.setText(el.word, face.word);
    drawn.word = face.word || "";
    W.setText(el.rounds, face.rounds);
    W.setText(el.label, face.label);
    W.setText(el["idle-note"], face.idle_note);
    W.show(el["idle-note"], !!face.idle_note);
    W.setText(el.message, face.message);
    W.show(el.message, !!face.message);
    W.show(el.muted, !!face.muted);
    document.body.classList.toggle("time-of-day", !!face.show_time_of_day);
    document.body.classList.toggle("paused", face.state === "paused");
    document.body.classList.toggle("has-tempo", !!face.tempo);
    if (el.track.hidden === !!face.tempo) { trackHeight = null; drawn.dot = -1; }
    W.show(el.track, !!face.tempo);
    if (face.tempo) applyTempo(face.tempo);
    applyBoard(face);
    var role = previousFace ? previousFace.role : null;
    if (role !== face.role) document.body.setAttribute("data-role", face.role || "");
  }

  function applyTempo(tempo) {
    var values = tempo.values || [];
    trackValues.forEach(function (item, index) {
      var figure = item.querySelector(".track-figure");
      var arrow = item.querySelector(".track-arrow");
      W.setText(figure, values[index] === undefined ? "" : values[index]);
      // TempoRep's notation ↓4·0·↑1·0: arrows on the moving phases, mirrored by reverse.
      var down = tempo.reverse ? "↑" : "↓";
      var up = tempo.reverse ? "↓" : "↑";
      W.setText(arrow, index === 0 ? down : index === 2 ? up : "·");
      item.classList.toggle("running", tempo.phase_index === index);
    });
  }

  // ---- The whiteboard and the media ----------------------------------------------------------
  var boardText = null;
  var shownMedia = null;

  function applyBoard(face) {
    var lines = face.whiteboard || [];
    var media = face.media && typeof face.media.path === "string"
      && face.media.path.indexOf("/media/") === 0 ? face.media : null;
    var text = lines.join("\n");
    if (text !== boardText) {
      boardText = text;
      el["board-lines"].textContent = "";
      lines.forEach(function (line) {
        var item = document.createElement("li");
        item.className = "board-line";
        item.textContent = line;
        el["board-lines"].appendChild(item);
      });
    }
    Array.prototype.forEach.call(el["board-lines"].children, function (item, index) {
      item.classList.toggle("current", index === face.whiteboard_line);
    });
    // The lit line is the step's caption already: it is not written twice.
    document.body.classList.toggle("lit-line", typeof face.whiteboard_line === "number");
    W.show(el["board-lines"], lines.length > 0);
    var key = media ? media.path : null;
    if (key !== shownMedia) {
      shownMedia = key;
      el.media.textContent = "";
      if (media) el.media.appendChild(mediaElement(media));
    }
    W.show(el.media, !!media);
    W.show(el.board, lines.length > 0 || !!media);
    document.body.classList.toggle("has-board", lines.length > 0 || !!media);
    document.body.classList.toggle("media-only", !!media && !lines.length);
    fitBoard();
  }

  /// A picture, or a video that loops silently as a demonstration does, never a control.
  function mediaElement(media) {
    var node;
    if (media.kind === "video") {
      node = document.createElement("video");
      node.muted = true;
      node.loop = true;
      node.autoplay = true;
      node.playsInline = true;
      ["muted", "loop", "autoplay", "playsinline"].forEach(function (name) {
        node.setAttribute(name, "");
      });
      node.addEventListener("loadedmetadata", fitBoard);
    } else {
      node = document.createElement("img");
      node.alt = "";
      node.addEventListener("load", fitBoard);
    }
    node.src = media.path;
    if (node.play) node.play().catch(function () { /* autoplay refused: the frame stays */ });
    return node;
  }

  /// The lines as large as a tenth of the screen's height (a fifteenth of its width on a
  /// portrait screen), smaller until they fit, but never below a twentieth of the screen's
  /// smaller side; lines that still do not fit are scrolled so that the lit one shows.
  function fitBoard() {
    var list = el["board-lines"];
    if (el.board.hidden || list.hidden) return;
    var vh = window.innerHeight / 100;
    var vmin = Math.min(window.innerWidth, window.innerHeight) / 100;
    var floor = 3.7 * vmin;
    var size = Math.max(floor, Math.min(7.4 * vh, 6.4 * window.innerWidth / 100));
    list.style.fontSize = size + "px";
    while (size > floor && list.scrollHeight > list.clientHeight + 1) {
      size = Math.max(floor, size * 0.92);
      list.style.fontSize = size + "px";
    }
    var current = list.querySelector(".current");
    var top = 0;
    if (current && list.scrollHeight > list.clientHeight + 1) {
      top = current.offsetTop - list.offsetTop - (list.clientHeight - current.offsetHeight) / 2;
    }
    list.scrollTop = Math.max(0, top);
  }
  window.addEventListener("resize", fitBoard);

  // ---- Heats: the lanes beside the clock, the call-up, the board -----------------------------
  /// `1st`, `2nd`, `3rd`, `11th`.
  function ordinal(n) {
    var tens = n % 100;
    return n + (tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th");
  }

  function node(tag, className, text) {
    var item = document.createElement(tag);
    item.className = className;
    if (text !== undefined) item.textContent = text;
    return item;
  }

  /// A lane's state as the TV words it: working, the finish time, CAP+12, 5+12.
  function laneState(lane) {
    if (lane.state === "working") return "working";
    if (typeof lane.score === "string" && lane.score) return lane.score;
    return typeof lane.finish_s === "number" ? W.formatSeconds(lane.finish_s) : lane.state;
  }

  /// A list of lanes (number, athlete, then `extra`'s cells), drawn anew only when it changed.
  function drawLanes(list, lanes, extra) {
    var rows = lanes.map(function (lane) {
      return [String(lane.lane), lane.athlete || "Lane " + lane.lane].concat(extra(lane));
    });
    var key = JSON.stringify(rows);
    if (list.getAttribute("data-key") === key) return;
    list.setAttribute("data-key", key);
    list.textContent = "";
    rows.forEach(function (cells, index) {
      var item = node("li", "lane-row lane-" + (lanes[index].state || "none"));
      cells.forEach(function (cell, column) { item.appendChild(node("span", "lane-cell lane-c" + column, cell)); });
      list.appendChild(item);
    });
    list.style.setProperty("--lane-count", Math.max(4, rows.length));
  }

  var callUp = null;
  var heatLanes = null;
  var standingsKey = null;

  function applyHeat(status) {
    var heat = status.heat && Array.isArray(status.heat.lanes) ? status.heat : null;
    var board = status.board && Array.isArray(status.board.divisions) ? status.board : null;
    callUp = heat && heat.phase === "call_up" ? heat : null;
    heatLanes = heat && !callUp && !board ? heat.lanes : null;
    if (callUp) {
      W.setText(el["callup-title"], "Heat " + heat.number + (heat.of ? " of " + heat.of : ""));
      drawLanes(el["callup-lanes"], heat.lanes, function (lane) { return [lane.division || ""]; });
    }
    if (heatLanes) {
      drawLanes(el["lane-rows"], heatLanes, function (lane) {
        return [laneState(lane), typeof lane.place === "number" ? ordinal(lane.place) : ""];
      });
    }
    W.show(el.callup, !!callUp);
    W.show(el.lanes, !!heatLanes);
    document.body.classList.toggle("has-lanes", !!heatLanes);
    document.body.classList.toggle("cover", !!callUp || !!board);
    W.show(el.standings, !!board && !callUp);
    if (board) drawStandings(board);
  }

  /// The board: per division its rows (place, athlete, score), in as many columns as make the
  /// rows largest, never scrolled.
  function drawStandings(board) {
    var key = JSON.stringify(board);
    if (key === standingsKey) return;
    standingsKey = key;
    W.setText(el["standings-title"], board.title || "Leaderboard");
    var body = el["standings-body"];
    body.textContent = "";
    var count = 0;
    board.divisions.forEach(function (division) {
      var rows = Array.isArray(division.rows) ? division.rows : [];
      if (board.divisions.length > 1 || division.division) {
        body.appendChild(node("h2", "standings-division", division.division || ""));
        count += 1.3;
      }
      rows.forEach(function (row) {
        var line = node("div", "standings-row");
        line.appendChild(node("span", "standings-place", typeof row.place === "number" ? row.place : ""));
        line.appendChild(node("span", "standings-athlete", row.athlete || ""));
        line.appendChild(node("span", "standings-score", row.score || ""));
        body.appendChild(line);
        count += 1;
      });
    });
    fitStandings(Math.max(1, count));
  }

  /// The column count whose rows are largest: each column about 15 em wide, all rows of a
  /// column within the body's height; then smaller until nothing overflows.
  function fitStandings(rows) {
    var body = el["standings-body"];
    var width = window.innerWidth * 0.92;
    var height = Math.max(1, body.clientHeight || window.innerHeight * 0.78);
    var best = { columns: 1, size: 0 };
    for (var columns = 1; columns <= 4; columns++) {
      var size = Math.min(window.innerHeight * 0.07, height / (Math.ceil(rows / columns) * 1.3),
        width / (columns * 15));
      if (size > best.size + 0.5) best = { columns: columns, size: size };
    }
    body.style.columnCount = best.columns;
    var fontSize = best.size;
    body.style.fontSize = fontSize + "px";
    while (fontSize > 8 && (body.scrollHeight > body.clientHeight + 1
      || body.scrollWidth > body.clientWidth + 1)) {
      fontSize *= 0.92;
      body.style.fontSize = fontSize + "px";
    }
  }
  window.addEventListener("resize", function () { standingsKey = null; if (current) applyHeat(current.status || {}); });

  /// The call-up's countdown at server time `at`: `starts_in_s` was true at the status's
  /// instant.
  function drawCallUp(clock, at) {
    if (!callUp) return;
    var left = typeof callUp.starts_in_s === "number"
      ? callUp.starts_in_s - Math.max(0, at - clock.server_ms) / 1000 : null;
    W.setText(el["callup-count"], left === null ? "" : "starts in " + W.formatSeconds(Math.ceil(Math.max(0, left) - 1e-6)));
  }

  // ---- Every frame ----------------------------------------------------------------------------
  /// The display's frame interval, measured from the animation frames' own timestamps (16.7 ms
  /// on a 60 Hz screen).
  var frameInterval = 16.7;
  var lastFrameAt = null;

  function frame(timestamp) {
    requestAnimationFrame(frame);
    if (lastFrameAt !== null) {
      var gap = timestamp - lastFrameAt;
      if (gap > 4 && gap < 50) frameInterval += (gap - frameInterval) / 8;
    }
    lastFrameAt = timestamp;
    draw();
  }

  function draw() {
    if (!current) return;
    var face = current.face;
    var clock = current.clock;
    // What is drawn now is on the screen until the next frame: it shows the middle of that
    // span, so a second changes within half a frame of its instant, early or late, instead of
    // up to a whole frame late.
    var at = W.clock.now();
    if (at === null) at = clock.server_ms;
    else at += frameInterval / 2;
    drawnAt = at;
    var digits;
    var meridiem = null;
    if (offline) {
      digits = frozenDigits;
    } else if (face.show_time_of_day) {
      var time = W.timeOfDay(clock, face, at);
      digits = time ? time.digits : "";
      meridiem = time ? time.meridiem : null;
    } else {
      digits = W.digitsText(clock, at);
      if (digits === null) digits = face.digits || "";
    }
    if (digits !== drawn.digits) {
      drawn.digits = digits;
      W.setText(el.digits, digits);
      fitDigits(digits);
    }
    W.setText(el.meridiem, meridiem);
    if (!el.standings.hidden) W.setText(el["standings-clock"], digits);
    if (!offline) drawCallUp(clock, at);
    W.show(el.meridiem, !!meridiem && !offline);
    document.body.classList.toggle("has-meridiem", !!meridiem && !offline);

    var progress = offline ? null : W.progressValue(clock, at);
    W.show(el.progress, progress !== null);
    // Written only when it moved by a visible step: no style work on frames that change nothing.
    if (progress !== null && Math.abs(progress - drawn.progress) >= 0.0005) {
      drawn.progress = progress;
      el["progress-fill"].style.transform = "scaleX(" + progress.toFixed(4) + ")";
    }

    if (face.tempo && !offline) drawDot(face.tempo, clock, at);

    // "next: …" from the instant the face says, on the server's clock.
    var next = face.next;
    var showNext = !!next && !offline && typeof next.from_ms === "number" && at >= next.from_ms;
    if (showNext) W.setText(el.next, "next: " + next.text);
    W.show(el.next, showNext);
    document.body.classList.toggle("showing-next", showNext);
  }

  /// The pacing dot: from → to between the phase's instants, on the server's clock. While the
  /// workout holds (paused, rate 0) it stays where the status put it. An explosive concentric
  /// eases out hard so that it visibly launches; every other phase is linear, because a
  /// controlled lift should look controlled (TempoRep).
  function drawDot(tempo, clock, at) {
    var held = !clock.digits || !clock.digits.rate;
    var instant = held ? clock.server_ms : at;
    var from = typeof tempo.from === "number" ? tempo.from : 0;
    var to = typeof tempo.to === "number" ? tempo.to : from;
    var span = tempo.ends_at_ms - tempo.starts_at_ms;
    var p = span > 0 ? (instant - tempo.starts_at_ms) / span : 1;
    p = Math.min(1, Math.max(0, p));
    if (tempo.explosive && tempo.phase_index === 2) p = 1 - Math.pow(1 - p, 4);
    var position = from + (to - from) * p;
    // A transform in pixels of the line's height: the compositor moves the dot, no layout.
    if (trackHeight === null) trackHeight = el["track-line"].getBoundingClientRect().height;
    var y = Math.round(position * trackHeight * 2) / 2;
    if (y !== drawn.dot) {
      drawn.dot = y;
      el["track-dot"].style.transform = "translate3d(0, " + y + "px, 0)";
    }
  }
  var trackHeight = null;
  window.addEventListener("resize", function () { trackHeight = null; drawn.dot = -1; });

  /// The digits' size follows the viewport (style.css: the smaller of a width and a height in
  /// vw/vh); the width part divides by the text's own width in em, measured once per shape
  /// (`0:00`, `00:00`, `0:00:00`) in the font this device has.
  var emWidths = {};
  var measurer = null;
  function fitDigits(text) {
    var shape = text.replace(/[0-9]/g, "0");
    if (!(shape in emWidths)) {
      if (!measurer) {
        measurer = document.createElement("span");
        measurer.className = "digits digits-measure";
        document.body.appendChild(measurer);
      }
      measurer.textContent = shape || "0:00";
      emWidths[shape] = Math.max(1, measurer.getBoundingClientRect().width / 100);
    }
    document.documentElement.style.setProperty("--digits-em", emWidths[shape].toFixed(3));
  }

  // ---- Cues: beeps and flashes ---------------------------------------------------------------
  var audio = null;
  var lastLongAt = -1;

  function startSound() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) audio = new Context();
    if (audio.resume) audio.resume();
    updateSoundButton();
  }

  function soundRunning() { return !!audio && audio.state === "running"; }

  function updateSoundButton() {
    W.setText(el.sound, soundRunning() ? "Turn sound off" : "Turn sound on");
    el.sound.classList.toggle("on", soundRunning());
    el.sound.setAttribute("aria-pressed", soundRunning() ? "true" : "false");
  }

  /// The audio clock's time for a server instant: getOutputTimestamp ties the audio clock to
  /// performance.now(), the offset ties that to the server.
  function audioTimeFor(serverMs) {
    var offset = W.clock.offsetMs();
    var nowAudio = audio.currentTime;
    if (offset === null || typeof serverMs !== "number") return nowAudio;
    var stamp = audio.getOutputTimestamp ? audio.getOutputTimestamp() : null;
    var perfTarget = serverMs - offset;
    if (stamp && stamp.performanceTime > 0) {
      return stamp.contextTime + (perfTarget - stamp.performanceTime) / 1000;
    }
    return nowAudio + (perfTarget - performance.now()) / 1000;
  }

  function tone(at, frequency, seconds, level) {
    var oscillator = audio.createOscillator();
    var gain = audio.createGain();
    oscillator.type = "square";
    oscillator.frequency.value = frequency;
    // A 5 ms attack and release: no click, and the onset stays where it was scheduled.
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(level, at + 0.005);
    gain.gain.setValueAtTime(level, at + seconds - 0.005);
    gain.gain.linearRampToValueAtTime(0, at + seconds);
    oscillator.connect(gain);
    gain.connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + seconds + 0.01);
  }

  var TEMPO_SEGMENTS = { eccentric: 1, bottom_pause: 1, concentric: 1, top_pause: 1 };

  /// The beeps of a cue, as [offset s, frequency Hz, length s] from its due instant.
  function pattern(cueEvent) {
    var name = cueEvent.name;
    switch (name) {
      case "countdown":
        return [[0, 880, 0.12]];
      case "segment_start":
        // A tempo phase change is a tap, not a horn: a rep of 3-1-1-0 has four of them.
        if (TEMPO_SEGMENTS[cueEvent.segment]) return [[0, 1320, 0.05]];
        return [[0, 1320, 0.6]];
      case "start":
      case "round_start":
      case "side_switch":
        return [[0, 1320, 0.6]];
      case "finish":
      case "cap_reached":
        return [[0, 1320, 1.2]];
      case "rep_complete":
        return [[0, 1320, 0.08], [0.14, 1320, 0.08]];
      case "set_complete":
        return [[0, 880, 0.1], [0.15, 1100, 0.1], [0.3, 1320, 0.14]];
      case "lap":
        return [[0, 1100, 0.08]];
      default:
        return [];
    }
  }

  function cue(payload) {
    var c = payload.cue;
    var due = typeof payload.due_ms === "number" ? payload.due_ms : payload.server_ms;
    var face = current && current.face;
    if (c.name === "countdown" || c.name === "round_start") scheduleFlash(due);
    if (!soundRunning() || (face && face.muted)) return;
    var beeps = pattern(c);
    if (!beeps.length) return;
    var at = Math.max(audio.currentTime + 0.01, audioTimeFor(due));
    // A cue that arrives long after it fell due is not played (the display reconnected, the
    // tab slept): only a sound for the present moment is worth making.
    if (audioTimeFor(due) < audio.currentTime - 0.5) return;
    // start, segment_start and round_start often fall due together: one long beep for them.
    var long = beeps.length === 1 && beeps[0][2] >= 0.5;
    if (long && Math.abs(at - lastLongAt) < 0.1) return;
    if (long) lastLongAt = at;
    beeps.forEach(function (b) { tone(at + b[0], b[1], b[2], 0.25); });
  }

  function scheduleFlash(due) {
    if (!flashEnabled) return;
    var at = W.clock.now();
    var wait = at === null || typeof due !== "number" ? 0 : Math.max(0, due - at);
    if (wait > 2000) return;
    setTimeout(function () {
      var flash = el.flash;
      flash.classList.remove("go");
      // Reading a layout property restarts the CSS animation on the next add.
      void flash.offsetWidth;
      flash.classList.add("go");
    }, wait);
  }

  // ---- Controls (shown while the pointer moves, hidden after a few seconds) ------------------
  var controlsTimer = null;
  function showControls() {
    document.body.classList.add("controls-visible");
    clearTimeout(controlsTimer);
    controlsTimer = setTimeout(function () {
      document.body.classList.remove("controls-visible");
    }, 4000);
  }
  ["pointermove", "pointerdown", "keydown", "touchstart"].forEach(function (name) {
    window.addEventListener(name, showControls, { passive: true });
  });

  el.sound.addEventListener("click", function () {
    if (soundRunning()) {
      audio.suspend().then(updateSoundButton);
    } else {
      startSound();
      if (audio) audio.onstatechange = updateSoundButton;
    }
  });
  el.fullscreen.addEventListener("click", function () {
    var root = document.documentElement;
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else if (root.requestFullscreen) {
      root.requestFullscreen().catch(function () {});
    }
  });
  if (!document.documentElement.requestFullscreen) el.fullscreen.hidden = true;

  /// A screen that stays on (where the browser allows it: a secure context, such as a kiosk on
  /// localhost), asked again when the page becomes visible.
  function keepAwake() {
    if (navigator.wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").catch(function () {});
    }
  }
  document.addEventListener("visibilitychange", keepAwake);

  // ---- Test hooks: what is drawn now ---------------------------------------------------------
  Object.defineProperty(window, "wodclockDisplay", {
    value: Object.freeze({
      digits: function () { return el.digits.textContent; },
      // The digits on the screen and the server instant they were drawn for: a test holds them
      // against the daemon's own law at that instant, which no second boundary can race.
      drawn: function () { return { digits: el.digits.textContent, at: drawnAt }; },
      word: function () { return el.word.textContent; },
      // The whiteboard as drawn: its lines, the lit one, "next: …" and the media element.
      board: function () {
        var media = el.media.firstChild;
        return {
          lines: Array.prototype.map.call(el["board-lines"].children, function (item) {
            return item.textContent;
          }),
          current: Array.prototype.findIndex.call(el["board-lines"].children, function (item) {
            return item.classList.contains("current");
          }),
          next: el.next.hidden ? null : el.next.textContent,
          media: media ? media.tagName.toLowerCase() : null,
        };
      },
      // The heat as drawn: the lanes beside the clock, the call-up, the board.
      heat: function () {
        function rows(list) {
          return Array.prototype.map.call(list.children, function (item) {
            return Array.prototype.map.call(item.children, function (cell) { return cell.textContent; });
          });
        }
        return {
          lanes: el.lanes.hidden ? null : rows(el["lane-rows"]),
          callUp: el.callup.hidden ? null : {
            title: el["callup-title"].textContent, count: el["callup-count"].textContent,
            lanes: rows(el["callup-lanes"]),
          },
          board: el.standings.hidden ? null : {
            title: el["standings-title"].textContent,
            rows: Array.prototype.map.call(el["standings-body"].querySelectorAll(".standings-row"),
              function (row) { return row.textContent; }),
          },
        };
      },
      offline: function () { return offline; },
      offsetMs: function () { return W.clock.offsetMs(); },
      lastEventId: function () { return feed.lastEventId; },
    }),
    writable: false,
    configurable: false,
  });

  if (params.get("sound") === "1") {
    startSound();
    if (audio) audio.onstatechange = updateSoundButton;
  }
  updateSoundButton();
  keepAwake();
  W.clock.start();
  feed.connect();
  requestAnimationFrame(frame);
  showControls();
})();
