// SPDX-License-Identifier: MIT
// The remote at `/remote`: the coach's phone. Behind the PIN (POST /api/login gives a session
// cookie); the live face from the same event stream as the display, so the coach sees a press
// land; the buttons send the control socket's commands through POST /api/command; the
// workout builder has the daemon explain what is typed (the page never parses a workout).
"use strict";

(function () {
  var W = window.Wodclock;
  function $(id) { return document.getElementById(id); }

  // ---- Talking to the daemon -----------------------------------------------------------------
  /// A JSON request; resolves to {status, body} (body null when the answer is not JSON). A
  /// missing or expired session sends the coach back to the PIN pad.
  function request(method, path, payload) {
    var options = { method: method, credentials: "same-origin", cache: "no-store", headers: {} };
    if (payload !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(payload);
    }
    return fetch(path, options).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (error) { body = null; }
        var result = { status: response.status, body: body, headers: response.headers };
        if (response.status === 401 && body && body.error && body.error.code === "sign_in") {
          showSignIn("Signed out: enter the PIN again");
        }
        return result;
      });
    }, function () {
      return { status: 0, body: null, headers: null };
    });
  }

  function errorText(result, fallback) {
    if (result.body && result.body.error && result.body.error.message) {
      return result.body.error.message;
    }
    if (result.status === 0) return "the clock does not answer: is the phone on the gym's Wi-Fi?";
    return fallback || "the clock refused (HTTP " + result.status + ")";
  }

  /// A command of the control socket's vocabulary, as the socket takes it.
  function command(payload) { return request("POST", "/api/command", payload); }

  // ---- Screens: the PIN pad, the remote, "the remote is off" ---------------------------------
  var screens = { signin: $("signin"), app: $("app"), off: $("remote-off") };
  function showScreen(name) {
    Object.keys(screens).forEach(function (key) { screens[key].hidden = key !== name; });
  }

  // ---- The PIN pad ---------------------------------------------------------------------------
  var pin = "";
  var pinLockedUntil = 0;
  var pinTimer = null;
  var MAX_PIN = 12;
  var MIN_PIN = 4;

  function drawPin() {
    var dots = $("pin-dots");
    dots.textContent = "";
    var count = Math.max(MIN_PIN, pin.length);
    for (var i = 0; i < count; i++) {
      var dot = document.createElement("span");
      dot.className = "pin-dot" + (i < pin.length ? " filled" : "");
      dots.appendChild(dot);
    }
  }

  function pinMessage(text) { W.setText($("pin-error"), text); }

  function pinLocked() { return performance.now() < pinLockedUntil; }

  function lockPin(seconds) {
    pinLockedUntil = performance.now() + seconds * 1000;
    document.body.classList.add("pin-locked");
    clearInterval(pinTimer);
    function tick() {
      var left = Math.ceil((pinLockedUntil - performance.now()) / 1000);
      if (left <= 0) {
        clearInterval(pinTimer);
        document.body.classList.remove("pin-locked");
        pinMessage("Try again");
        return;
      }
      pinMessage("Too many wrong PINs: wait " + left + " s before the next try");
    }
    tick();
    pinTimer = setInterval(tick, 250);
  }

  function pressKey(key) {
    if (pinLocked()) return;
    if (key === "back") {
      pin = pin.slice(0, -1);
    } else if (key === "ok") {
      submitPin();
      return;
    } else if (/^[0-9]$/.test(key) && pin.length < MAX_PIN) {
      pin += key;
    }
    pinMessage("");
    drawPin();
  }

  function submitPin() {
    if (pin.length < MIN_PIN) {
      pinMessage("The PIN has " + MIN_PIN + " to " + MAX_PIN + " digits");
      return;
    }
    var tried = pin;
    pin = "";
    drawPin();
    request("POST", "/api/login", { pin: tried }).then(function (result) {
      if (result.status === 200 && result.body && result.body.ok) {
        pinMessage("");
        startApp();
        var waiting = afterSignIn;
        afterSignIn = [];
        waiting.forEach(function (resume) { resume(); });
      } else if (result.status === 429) {
        var header = result.headers && result.headers.get("Retry-After");
        var seconds = Math.min(600, Math.max(1, parseInt(header, 10) || 2));
        lockPin(seconds);
      } else if (result.status === 404) {
        showScreen("off");
      } else if (result.status === 401) {
        var box = $("pin-dots");
        box.classList.remove("shake");
        void box.offsetWidth;
        box.classList.add("shake");
        pinMessage(errorText(result, "Wrong PIN"));
      } else {
        pinMessage(errorText(result));
      }
    });
  }

  $("pinpad").addEventListener("click", function (event) {
    var key = event.target.closest("[data-key]");
    if (key) pressKey(key.getAttribute("data-key"));
  });
  document.addEventListener("keydown", function (event) {
    if (screens.signin.hidden) return;
    if (/^[0-9]$/.test(event.key)) pressKey(event.key);
    else if (event.key === "Backspace") pressKey("back");
    else if (event.key === "Enter") pressKey("ok");
  });

  function showSignIn(lead) {
    stopApp();
    pin = "";
    drawPin();
    W.setText($("signin-lead"), lead || "Enter the coach's PIN");
    showScreen("signin");
  }

  // ---- The live face -------------------------------------------------------------------------
  var current = null;
  var feed = null;
  var running = false;

  function startFeed() {
    if (feed) return;
    feed = new W.EventFeed({
      status: function (payload) {
        if (!payload || !payload.face || !payload.clock) return;
        current = payload;
        applyFace(payload.face);
        if (currentTab === "heats") drawHeats();
      },
      offline: function (isOffline) {
        document.body.classList.toggle("offline", isOffline);
        W.setText($("link-state"), isOffline
          ? (feed && feed.connectedOnce ? "offline — reconnecting" : "connecting…") : "live");
      },
    });
    feed.connect();
  }

  function applyFace(face) {
    W.applyColours(face);
    W.setText($("live-word"), face.word);
    W.setText($("live-rounds"), face.rounds);
    W.setText($("live-label"), face.label || face.idle_note);
    W.setText($("live-message"), face.message);
    W.show($("live-message"), !!face.message);
    var toggle = $("toggle");
    var next = nextToggle(face.state);
    W.setText(toggle, next.label);
    toggle.setAttribute("data-command", next.command);
    toggle.classList.toggle("is-pause", next.command === "pause");
    W.setText($("mute"), face.muted ? "Unmute" : "Mute");
    $("mute").classList.toggle("active", !!face.muted);
  }

  /// Start/pause as one button: what a press does in each state (explicit commands rather
  /// than `toggle`, so a double tap on a laggy network cannot undo itself).
  function nextToggle(state) {
    if (state === "running" || state === "countin") return { label: "Pause", command: "pause" };
    if (state === "paused") return { label: "Resume", command: "resume" };
    return { label: "Start", command: "start" };
  }

  function frame() {
    if (!running) return;
    requestAnimationFrame(frame);
    if (!current) return;
    var face = current.face;
    var clock = current.clock;
    var at = W.clock.now();
    if (at === null) at = clock.server_ms;
    var text;
    if (feed.isOffline()) {
      text = "–:––";
    } else if (face.show_time_of_day) {
      var time = W.timeOfDay(clock, face, at);
      text = time ? time.digits + (time.meridiem ? " " + time.meridiem : "") : "";
    } else {
      text = W.digitsText(clock, at);
      if (text === null) text = face.digits || "";
    }
    W.setText($("live-digits"), text);
    var progress = W.progressValue(clock, at);
    $("live-progress-fill").style.transform = "scaleX(" + (progress === null ? 0 : progress) + ")";
  }

  // ---- Buttons -------------------------------------------------------------------------------
  var noticeTimer = null;
  function notice(text, kind) {
    var element = $("notice");
    W.setText(element, text);
    element.className = "notice" + (kind ? " notice-" + kind : "");
    clearTimeout(noticeTimer);
    if (text) noticeTimer = setTimeout(function () { notice(""); }, 6000);
  }

  /// Presses answered "sign in again" (401 `sign_in`: the session expired, or the clock lost
  /// it), each waiting for the PIN to be entered to be sent again.
  var afterSignIn = [];
  /// A press older than this when the PIN is in is not sent: the moment it was for is gone.
  var RESEND_WITHIN_MS = 120000;

  function isSignIn(result) {
    return result.status === 401 && result.body && result.body.error
      && result.body.error.code === "sign_in";
  }

  /// Sends a command from a button: the button shows that it is on its way, then that it
  /// landed (the live face shows what it did) or why the clock refused. A press answered
  /// "sign in again" is never dropped: the PIN pad comes up (request() shows it) and the
  /// press goes out again once the PIN is in.
  function press(button, payload) {
    button.classList.add("pending");
    var pressedAt = performance.now();
    return command(payload).then(function (result) {
      if (isSignIn(result)) {
        W.setText($("signin-lead"), "Signed out: enter the PIN, and the press is sent");
        return new Promise(function (resume) { afterSignIn.push(resume); }).then(function () {
          button.classList.remove("pending");
          if (performance.now() - pressedAt > RESEND_WITHIN_MS) {
            notice("The press before signing in was not sent: press again", "error");
            return result;
          }
          return press(button, payload);
        });
      }
      button.classList.remove("pending");
      if (result.status === 200 && result.body && result.body.ok) {
        button.classList.remove("landed");
        void button.offsetWidth;
        button.classList.add("landed");
        notice("");
      } else if (result.status !== 401) {
        notice(errorText(result), "error");
      }
      return result;
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".control[data-command]"),
    function (button) {
      button.addEventListener("click", function () {
        press(button, { cmd: button.getAttribute("data-command") });
      });
    });

  $("mute").addEventListener("click", function () {
    var muted = !!(current && current.face.muted);
    press($("mute"), { cmd: "mute", on: !muted });
  });

  $("reset").addEventListener("click", function () {
    confirmSheet("Reset the workout? The clock goes back to its start.", "Reset")
      .then(function (yes) { if (yes) press($("reset"), { cmd: "reset" }); });
  });

  // ---- The confirm sheet ---------------------------------------------------------------------
  var confirmResolve = null;
  function confirmSheet(text, yesLabel) {
    W.setText($("confirm-text"), text);
    W.setText($("confirm-yes"), yesLabel || "Yes");
    $("confirm").hidden = false;
    $("confirm-no").focus();
    return new Promise(function (resolve) { confirmResolve = resolve; });
  }
  function closeConfirm(answer) {
    $("confirm").hidden = true;
    if (confirmResolve) confirmResolve(answer);
    confirmResolve = null;
  }
  $("confirm-yes").addEventListener("click", function () { closeConfirm(true); });
  $("confirm-no").addEventListener("click", function () { closeConfirm(false); });
  $("confirm").addEventListener("click", function (event) {
    if (event.target === $("confirm")) closeConfirm(false);
  });

  /// A load (a preset, a written workout or `again`): over a running or paused workout the
  /// clock answers `busy`, and the coach is asked before it is replaced.
  function load(payload, button) {
    return press(button, payload).then(function (result) {
      if (result.status === 409 && result.body && result.body.error
        && result.body.error.code === "busy") {
        notice("");
        return confirmSheet("A workout is running — replace it?", "Replace").then(function (yes) {
          if (!yes) return result;
          var again = {};
          Object.keys(payload).forEach(function (key) { again[key] = payload[key]; });
          again.replace = true;
          return press(button, again);
        });
      }
      return result;
    }).then(function (result) {
      if (result.status === 200 && result.body && result.body.ok) {
        notice(payload.start ? "Loaded and started" : "Loaded: press Start when ready", "ok");
      }
      return result;
    });
  }

  // ---- The workout builder: typed, explained live --------------------------------------------
  var text = $("workout-text");
  var explainTimer = null;
  var explainSequence = 0;

  function explainSoon() {
    clearTimeout(explainTimer);
    explainTimer = setTimeout(explainNow, 250);
  }

  function explainNow() {
    var value = text.value.trim();
    var box = $("explain");
    var sequence = ++explainSequence;
    if (!value) {
      box.textContent = "";
      box.appendChild(element("p", "explain-idle", "Type a workout: the clock says how it reads it."));
      return;
    }
    request("GET", "/api/explain?text=" + encodeURIComponent(value)).then(function (result) {
      if (sequence !== explainSequence) return;  // a newer text is on its way
      box.textContent = "";
      var body = result.body;
      if (body && body.ok && body.explanation) {
        drawExplanation(box, body.explanation);
      } else if (body && body.error && body.error.code === "not_a_workout") {
        drawProblem(box, value, body.error);
      } else if (result.status !== 401) {
        box.appendChild(element("p", "explain-error", errorText(result)));
      }
    });
  }

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined && content !== null) node.textContent = content;
    return node;
  }

  function drawExplanation(box, explanation) {
    box.appendChild(element("p", "explain-summary", explanation.summary));
    var parts = explanation.parts || [];
    if (parts.length > 1) {
      var list = element("ol", "explain-parts");
      parts.forEach(function (part) {
        var length = typeof part.length_s === "number" ? W.formatSeconds(part.length_s) : "open-ended";
        list.appendChild(element("li", null, part.summary + " — " + length));
      });
      box.appendChild(list);
    }
    var readings = explanation.readings || [];
    if (readings.length) {
      box.appendChild(element("p", "explain-heading", "read as"));
      var ul = element("ul", "explain-readings");
      readings.forEach(function (reading) { ul.appendChild(element("li", null, reading)); });
      box.appendChild(ul);
    }
  }

  /// The text with the problem underlined: the column is 1-based in Unicode scalars (what
  /// Array.from counts), the length how many are marked; at the end of the text a marked
  /// space shows where something is missing.
  function drawProblem(box, value, problem) {
    var scalars = Array.from(value);
    var start = Math.max(0, Math.min(scalars.length, (problem.column || 1) - 1));
    var length = Math.max(0, problem.length || 0);
    var line = element("p", "explain-source");
    line.appendChild(document.createTextNode(scalars.slice(0, start).join("")));
    var marked = scalars.slice(start, start + Math.max(1, length)).join("");
    line.appendChild(element("mark", "explain-mark", marked || " "));
    line.appendChild(document.createTextNode(scalars.slice(start + Math.max(1, length)).join("")));
    box.appendChild(line);
    box.appendChild(element("p", "explain-error", problem.message));
    if (problem.hint) box.appendChild(element("p", "explain-hint", problem.hint));
  }

  text.addEventListener("input", function () {
    if (!composing) builderOwnsText = false;
    explainSoon();
  });

  function loadWritten(start, button) {
    var value = text.value.trim();
    if (!value) {
      notice("Type a workout first, as on the whiteboard: amrap 14", "error");
      text.focus();
      return;
    }
    var payload = { cmd: "load", workout: value };
    if (start) payload.start = true;
    load(payload, button).then(function (result) {
      if (result.status === 200 && result.body && result.body.ok) {
        rememberRecentsStale();
        if (start) showLive();
      }
    });
  }
  $("load").addEventListener("click", function () { loadWritten(false, $("load")); });

  /// After a load that starts, the live clock and Pause are what the coach needs next: the
  /// page scrolls up to them from the builder.
  function showLive() {
    var live = $("live");
    if (live.scrollIntoView) live.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // ---- The builder's picks: a workout of the library, a picture or video for a line --------
  /// The library's workouts, when the presets reply names any (`library`: names, or objects
  /// with a `name` and perhaps the `workout` as written): one fills the field.
  function fillLibrary(library) {
    var pick = $("library-pick");
    while (pick.options.length > 1) pick.remove(1);
    (Array.isArray(library) ? library : []).forEach(function (entry) {
      var name = typeof entry === "string" ? entry : entry && entry.name;
      if (typeof name !== "string" || !name) return;
      var written = entry && typeof entry.workout === "string" ? entry.workout : name;
      var option = element("option", null, name);
      option.value = written;
      pick.appendChild(option);
    });
    W.show(pick, pick.options.length > 1);
  }
  $("library-pick").addEventListener("change", function () {
    var value = this.value;
    this.selectedIndex = 0;
    if (!value) return;
    text.value = value;
    explainSoon();
  });

  function loadMediaChoices() {
    request("GET", "/api/media").then(function (result) {
      var pick = $("media-pick");
      while (pick.options.length > 1) pick.remove(1);
      var files = result.body && Array.isArray(result.body.media) ? result.body.media : [];
      files.forEach(function (file) {
        if (!file || typeof file.name !== "string") return;
        var option = element("option", null, file.name + (file.kind === "video" ? " ▶" : ""));
        option.value = file.name;
        pick.appendChild(option);
      });
      W.show(pick, pick.options.length > 1);
    });
  }

  /// `@file` at the end of the line the caret is on (the first line: the whole workout's),
  /// in place of one the line named already.
  function attachMedia(name) {
    var value = text.value;
    var caret = typeof text.selectionStart === "number" ? text.selectionStart : value.length;
    var start = value.lastIndexOf("\n", caret - 1) + 1;
    var end = value.indexOf("\n", caret);
    if (end < 0) end = value.length;
    var line = value.slice(start, end).replace(/\s+@\S+\s*$/, "").replace(/\s+$/, "");
    var written = (line ? line + " " : "") + "@" + name;
    text.value = value.slice(0, start) + written + value.slice(end);
    var at = start + written.length;
    if (text.setSelectionRange) text.setSelectionRange(at, at);
    explainSoon();
  }
  $("media-pick").addEventListener("change", function () {
    var name = this.value;
    this.selectedIndex = 0;
    if (name) attachMedia(name);
  });
  $("load-start").addEventListener("click", function () { loadWritten(true, $("load-start")); });

  // ---- Tabs: presets, recent, today, history -------------------------------------------------
  var currentTab = "workout";
  function openTab(name) {
    currentTab = name;
    Array.prototype.forEach.call(document.querySelectorAll(".tab"), function (tab) {
      var on = tab.getAttribute("data-tab") === name;
      tab.classList.toggle("selected", on);
      tab.setAttribute("aria-selected", on ? "true" : "false");
    });
    Array.prototype.forEach.call(document.querySelectorAll(".panel"), function (panel) {
      panel.hidden = panel.getAttribute("data-panel") !== name;
    });
    if (name === "presets") loadPresets();
    if (name === "recent") loadRecent();
    if (name === "schedule") loadSchedule();
    if (name === "history") loadHistory();
    if (name === "heats") drawHeats();
  }
  $("tabs").addEventListener("click", function (event) {
    var tab = event.target.closest("[data-tab]");
    if (tab) openTab(tab.getAttribute("data-tab"));
  });
  function rememberRecentsStale() { if (currentTab === "recent") loadRecent(); }

  function listMessage(list, message) {
    list.textContent = "";
    list.appendChild(element("li", "list-empty", message));
  }

  function row(title, detail, onTap, className) {
    var item = element("li", "list-item" + (className ? " " + className : ""));
    var button = element("button", "row");
    button.type = "button";
    button.appendChild(element("span", "row-title", title));
    if (detail) button.appendChild(element("span", "row-detail", detail));
    if (onTap) {
      button.addEventListener("click", function () { onTap(button); });
    } else {
      button.disabled = true;
    }
    item.appendChild(button);
    return item;
  }

  var MODE_NAMES = {
    clock: "clock", for_time: "for time", amrap: "AMRAP", emom: "EMOM", intervals: "intervals",
    tabata: "Tabata", tempo: "tempo", sequence: "sequence",
  };

  function loadPresets() {
    var list = $("presets-list");
    request("GET", "/api/presets").then(function (result) {
      var body = result.body;
      if (!body || !body.ok) { if (result.status !== 401) listMessage(list, errorText(result)); return; }
      list.textContent = "";
      fillLibrary(body.library);
      if (!body.presets.length) listMessage(list, "The config has no presets");
      body.presets.forEach(function (preset) {
        var parts = [MODE_NAMES[preset.mode] || preset.mode];
        if (typeof preset.length_s === "number") parts.push(W.formatSeconds(preset.length_s));
        if (preset.label) parts.push(preset.label);
        list.appendChild(row(preset.name, parts.join(" · "), function (button) {
          load({ cmd: "load", preset: preset.name }, button);
        }, preset.name === body.current ? "current" : ""));
      });
    });
  }

  function historyTitle(entry) { return entry.workout || entry.preset; }

  function loadRecent() {
    var list = $("recent-list");
    request("GET", "/api/recent").then(function (result) {
      var body = result.body;
      if (!body || !body.ok) { if (result.status !== 401) listMessage(list, errorText(result)); return; }
      list.textContent = "";
      if (!body.recent.length) listMessage(list, "Nothing run yet");
      body.recent.forEach(function (entry) {
        var payload = entry.workout
          ? { cmd: "load", workout: entry.workout } : { cmd: "load", preset: entry.preset };
        list.appendChild(row(historyTitle(entry), whenText(entry.ended_at),
          function (button) { load(payload, button); }));
      });
    });
  }
  $("again").addEventListener("click", function () { load({ cmd: "again" }, $("again")); });

  /// A wall-clock instant (Unix seconds) in the gym's zone, from the offset the daemon sends:
  /// `today 18:04`, `yesterday 06:40`, `Mon 12 Jan 06:40`.
  var WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  function whenText(unixSeconds) {
    if (typeof unixSeconds !== "number") return "";
    var offset = current ? current.clock.utc_offset_s || 0 : 0;
    var local = new Date((unixSeconds + offset) * 1000);
    var time = pad(local.getUTCHours()) + ":" + pad(local.getUTCMinutes());
    if (current && typeof current.clock.wall_ms === "number") {
      var today = Math.floor((current.clock.wall_ms / 1000 + offset) / 86400);
      var day = Math.floor((unixSeconds + offset) / 86400);
      if (day === today) return "today " + time;
      if (day === today - 1) return "yesterday " + time;
    }
    return WEEKDAYS[local.getUTCDay()] + " " + local.getUTCDate() + " "
      + MONTHS[local.getUTCMonth()] + " " + time;
  }
  function pad(n) { return n < 10 ? "0" + n : "" + n; }

  function loadSchedule() {
    var list = $("schedule-list");
    request("GET", "/api/schedule").then(function (result) {
      var body = result.body;
      if (!body || !body.ok) { if (result.status !== 401) listMessage(list, errorText(result)); return; }
      W.setText($("schedule-note"), body.synchronized ? ""
        : "The clock's time is not synchronized yet: no class loads by itself until it is.");
      list.textContent = "";
      if (!body.classes.length) listMessage(list, "No classes today");
      var nextKey = body.next ? body.next.at + body.next.name : null;
      body.classes.forEach(function (entry) {
        var isNext = !!body.next && entry.date === body.next.date && entry.at + entry.name === nextKey;
        var className = entry.past ? "past" : isNext ? "current" : "";
        list.appendChild(row(entry.at + "  " + entry.name,
          entry.workout + (isNext ? " · next" : entry.past ? " · done" : ""), null, className));
      });
    });
  }

  function loadHistory() {
    var list = $("history-list");
    request("GET", "/api/history?limit=30").then(function (result) {
      var body = result.body;
      if (!body || !body.ok) { if (result.status !== 401) listMessage(list, errorText(result)); return; }
      list.textContent = "";
      if (!body.history.length) listMessage(list, "No workouts recorded yet");
      body.history.slice().reverse().forEach(function (entry) {
        var parts = [whenText(entry.ended_at), W.formatSeconds(entry.active_s || 0), entry.outcome];
        if (typeof entry.rounds === "number") parts.push(plural(entry.rounds, "round"));
        if (entry.laps) parts.push(plural(entry.laps, "lap"));
        if (entry.time_under_tension_s) {
          parts.push("TUT " + tensionText(entry.time_under_tension_s));
        }
        list.appendChild(row(historyTitle(entry), parts.join(" · "), null));
      });
    });
  }

  /// `1 round`, `3 rounds` (TempoRep: "1 rep", not "1 reps").
  function plural(count, word) { return count + " " + word + (count === 1 ? "" : "s"); }

  /// Time under tension as TempoRep shows it: `15s` under a minute, `1:30` from one.
  function tensionText(seconds) {
    return seconds < 60 ? Math.round(seconds) + "s" : W.formatSeconds(seconds);
  }

  // ---- Heats and class scores ----------------------------------------------------------------
  /// The heat panel from the status: which heat is on, and whether the board is shown.
  function drawHeats() {
    var status = current && current.status;
    var heat = status && status.heat;
    W.setText($("heats-state"), heat
      ? "Heat " + heat.number + (heat.of ? " of " + heat.of : "") + " · "
        + ({ call_up: "call-up", running: "running", done: "done" }[heat.phase] || heat.phase)
        + " · "
        + (heat.lanes || []).length + " lanes"
      : "No heat sheet loaded.");
    var boardOn = !!(status && status.board);
    W.setText($("heats-board"), boardOn ? "Board off" : "Board on");
    $("heats-board").setAttribute("aria-pressed", boardOn ? "true" : "false");
  }

  /// A refused sheet: the daemon's diagnostics as they are rendered, in a fixed-width box.
  function heatsError(text) {
    W.setText($("heats-error"), text);
    W.show($("heats-error"), !!text);
  }

  function heatsCommand(button, payload, done) {
    heatsError("");
    press(button, payload).then(function (result) {
      if (result.status === 200 && result.body && result.body.ok) {
        if (done) notice(done, "ok");
      } else if (result.body && result.body.error && result.body.error.code === "bad_heat_sheet") {
        notice("");
        heatsError(result.body.error.message);
      }
    });
  }

  $("heats-load").addEventListener("click", function () {
    var csv = $("heats-csv").value;
    if (!csv.trim()) { notice("Paste the heat sheet first", "error"); return; }
    heatsCommand($("heats-load"), { cmd: "heats", op: "load", csv: csv, name: "pasted" },
      "Heat sheet loaded");
  });
  $("heats-next").addEventListener("click", function () {
    heatsCommand($("heats-next"), { cmd: "heats", op: "next" });
  });
  $("heats-board").addEventListener("click", function () {
    var on = !(current && current.status && current.status.board);
    heatsCommand($("heats-board"), { cmd: "heats", op: "board", on: on });
  });
  $("heats-clear").addEventListener("click", function () {
    confirmSheet("Clear the heat sheet? The lanes go back to numbers.", "Clear").then(function (yes) {
      if (yes) heatsCommand($("heats-clear"), { cmd: "heats", op: "clear" }, "Heat sheet cleared");
    });
  });

  $("score-save").addEventListener("click", function () {
    var athlete = $("score-athlete").value.trim();
    var score = $("score-value").value.trim();
    if (!athlete || !score) {
      notice("A score needs the athlete's name and the score: 7:42, 5+12 or CAP+12", "error");
      return;
    }
    press($("score-save"), { cmd: "score", athlete: athlete, score: score }).then(function (result) {
      if (result.status === 200 && result.body && result.body.ok) {
        notice("Saved: " + athlete + " " + score, "ok");
        $("score-athlete").value = "";
        $("score-value").value = "";
        $("score-athlete").focus();
      }
    });
  });

  // ---- The tempo builder ---------------------------------------------------------------------
  // Four phases in half seconds (eccentric, bottom pause, concentric, top pause); a concentric
  // of 0 is explosive, written X and timed as 1 s (TempoRep). What it composes goes into the
  // text field above, so it is explained and loaded like any written workout.
  var PHASES = [
    { name: "Down", hint: "lowering" },
    { name: "Bottom", hint: "pause" },
    { name: "Up", hint: "lifting" },
    { name: "Top", hint: "pause" },
  ];
  var tempo = {
    phases: [3, 1, 0, 0],
    reps: 6,
    sets: 4,
    rest: 90,
    unilateral: false,
    upFirst: false,
    reversed: false,
    exercise: null,
  };
  /// What the coach changed by hand: a suggestion is never applied over it.
  var touched = { phases: false, unilateral: false, upFirst: false };
  var builderOwnsText = false;
  var composing = false;

  function phaseText(value, index) {
    if (index === 2 && value === 0) return "X";
    return String(value);
  }

  function tempoWritten(phases) {
    var texts = phases.map(phaseText);
    var half = texts.some(function (t) { return t.indexOf(".") >= 0; });
    return half ? texts.join("-") : texts.join("");
  }

  function restText(seconds) {
    return seconds < 60 ? seconds + "s" : W.formatSeconds(seconds);
  }

  /// The exercise's name as a caption: the notation's '+' joins parts, so it is written out;
  /// a caption has at most 64 characters.
  function caption(name) {
    return name.replace(/\s*\+\s*/g, " and ").replace(/\s+/g, " ").trim().slice(0, 64);
  }

  /// `tempo 31X0 6x4 rest 1:30 each side up first reversed: Barbell Squat`.
  function composeTempo() {
    var words = ["tempo", tempoWritten(tempo.phases), tempo.reps + "x" + tempo.sets];
    if (tempo.sets > 1) words.push("rest " + restText(tempo.rest));
    if (tempo.unilateral) words.push("each side");
    if (tempo.upFirst) words.push("up first");
    if (tempo.reversed) words.push("reversed");
    var written = words.join(" ");
    if (tempo.exercise) written += ": " + caption(tempo.exercise.name);
    return written;
  }

  function writeTempo() {
    composing = true;
    text.value = composeTempo();
    composing = false;
    builderOwnsText = true;
    explainSoon();
    drawBuilder();
  }

  function stepper(label, hint, valueText, onMinus, onPlus) {
    var box = element("div", "stepper");
    var head = element("div", "stepper-label");
    head.appendChild(element("span", "stepper-name", label));
    if (hint) head.appendChild(element("span", "stepper-hint", hint));
    box.appendChild(head);
    var controls = element("div", "stepper-controls");
    var minus = element("button", "step", "−");
    minus.type = "button";
    minus.setAttribute("aria-label", label + " less");
    minus.addEventListener("click", onMinus);
    var value = element("span", "stepper-value", valueText);
    var plus = element("button", "step", "+");
    plus.type = "button";
    plus.setAttribute("aria-label", label + " more");
    plus.addEventListener("click", onPlus);
    controls.appendChild(minus);
    controls.appendChild(value);
    controls.appendChild(plus);
    box.appendChild(controls);
    return box;
  }

  function clamp(value, low, high) { return Math.min(high, Math.max(low, value)); }

  function drawBuilder() {
    var phasesBox = $("tempo-phases");
    phasesBox.textContent = "";
    PHASES.forEach(function (phase, index) {
      phasesBox.appendChild(stepper(phase.name, phase.hint, phaseText(tempo.phases[index], index),
        function () { changePhase(index, -0.5); }, function () { changePhase(index, 0.5); }));
    });
    var counts = $("counts");
    counts.textContent = "";
    counts.appendChild(stepper("Reps", "per set", String(tempo.reps),
      function () { tempo.reps = clamp(tempo.reps - 1, 1, 50); writeTempo(); },
      function () { tempo.reps = clamp(tempo.reps + 1, 1, 50); writeTempo(); }));
    counts.appendChild(stepper("Sets", null, String(tempo.sets),
      function () { tempo.sets = clamp(tempo.sets - 1, 1, 20); writeTempo(); },
      function () { tempo.sets = clamp(tempo.sets + 1, 1, 20); writeTempo(); }));
    counts.appendChild(stepper("Rest", "between sets", restText(tempo.rest),
      function () { tempo.rest = clamp(tempo.rest - 15, 0, 600); writeTempo(); },
      function () { tempo.rest = clamp(tempo.rest + 15, 0, 600); writeTempo(); }));
    setToggle($("opt-unilateral"), tempo.unilateral);
    setToggle($("opt-up-first"), tempo.upFirst);
    setToggle($("opt-reversed"), tempo.reversed);
    drawSuggestions();
  }

  function changePhase(index, delta) {
    tempo.phases[index] = clamp(tempo.phases[index] + delta, 0, 9);
    touched.phases = true;
    writeTempo();
  }

  function setToggle(button, on) {
    button.classList.toggle("on", on);
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  $("opt-unilateral").addEventListener("click", function () {
    tempo.unilateral = !tempo.unilateral;
    touched.unilateral = true;
    writeTempo();
  });
  $("opt-up-first").addEventListener("click", function () {
    tempo.upFirst = !tempo.upFirst;
    touched.upFirst = true;
    writeTempo();
  });
  $("opt-reversed").addEventListener("click", function () {
    tempo.reversed = !tempo.reversed;
    writeTempo();
  });
  $("tempo").addEventListener("toggle", function () {
    if ($("tempo").open && (!text.value.trim() || builderOwnsText)) writeTempo();
  });

  // ---- TempoRep's suggestions ----------------------------------------------------------------
  /// A starting tempo by primary muscle: slower, controlled eccentrics everywhere; explosive
  /// concentrics where the muscle produces power (legs, chest, calves, arms), a controlled one
  /// with a squeeze at the top where the hinge or the pull should stay strict.
  var MUSCLE_TEMPO = {
    quadriceps: [3, 1, 0, 0],
    glutes: [3, 1, 0, 0],
    adductors: [3, 1, 0, 0],
    abductors: [2, 0, 1, 1],
    hamstrings: [3, 0, 1, 1],
    "lower back": [3, 0, 1, 1],
    chest: [3, 1, 0, 0],
    shoulders: [2, 0, 1, 0],
    triceps: [3, 0, 0, 0],
    biceps: [3, 0, 0, 0],
    forearms: [2, 0, 0, 1],
    calves: [3, 1, 0, 1],
    lats: [3, 0, 1, 1],
    "middle back": [3, 0, 1, 1],
    traps: [2, 0, 1, 1],
    abdominals: [2, 0, 1, 1],
    neck: [2, 0, 2, 0],
  };

  /// One side at a time: a name that says single, one-arm / one arm, one-leg / one leg,
  /// one-handed, alternating / alternate, unilateral or split squat (a Bulgarian split squat is
  /// a leg at a time). Words such as "side" are left out: a side lateral raise uses both arms.
  var UNILATERAL = /\b(single|one[- ](arm|leg|hand|handed|legged|armed)|alternat(ing|e)|unilateral|split squat)/i;
  /// Concentric first: a deadlift starts on the floor and a pull-up or chin-up from a hang, so
  /// the rep begins with the lift (TempoRep's rule), as does a rack pull. A Romanian or
  /// stiff-legged deadlift starts standing and lowers first, so it keeps the eccentric first.
  var UP_FIRST = /(deadlift|pull-?ups?\b|chin-?ups?\b|rack pull)/i;
  var DOWN_FIRST = /(romanian|stiff[- ]legged|\brdl\b)/i;

  function suggestionsFor(exercise) {
    var list = [];
    var muscle = exercise.muscles[0];
    if (muscle && MUSCLE_TEMPO[muscle]) {
      list.push({ key: "phases", value: MUSCLE_TEMPO[muscle],
        label: "Tempo " + MUSCLE_TEMPO[muscle].map(phaseText).join("-") + " for " + muscle });
    }
    list.push({ key: "unilateral", value: UNILATERAL.test(exercise.name),
      label: UNILATERAL.test(exercise.name) ? "Each side" : "Both sides" });
    var upFirst = UP_FIRST.test(exercise.name) && !DOWN_FIRST.test(exercise.name);
    list.push({ key: "upFirst", value: upFirst, label: upFirst ? "Up first" : "Down first" });
    return list;
  }

  function suggestionApplied(suggestion) {
    if (suggestion.key === "phases") return suggestion.value.join() === tempo.phases.join();
    return tempo[suggestion.key] === suggestion.value;
  }

  function applySuggestion(suggestion) {
    if (suggestion.key === "phases") tempo.phases = suggestion.value.slice();
    else tempo[suggestion.key] = suggestion.value;
  }

  function drawSuggestions() {
    var box = $("suggestions");
    box.textContent = "";
    if (!tempo.exercise) { box.hidden = true; return; }
    var open = suggestionsFor(tempo.exercise).filter(function (s) { return !suggestionApplied(s); });
    box.hidden = open.length === 0;
    if (!open.length) return;
    box.appendChild(element("p", "suggestions-title", "Suggested for " + tempo.exercise.name));
    var chips = element("div", "chips");
    open.forEach(function (suggestion) {
      var chip = element("button", "suggestion", suggestion.label);
      chip.type = "button";
      if (touched[suggestion.key]) chip.classList.add("overridden");
      chip.addEventListener("click", function () {
        applySuggestion(suggestion);
        writeTempo();
      });
      chips.appendChild(chip);
    });
    var untouched = open.filter(function (s) { return !touched[s.key]; });
    if (untouched.length > 1) {
      var all = element("button", "suggestion suggestion-all", "Use all");
      all.type = "button";
      // "Use all" fills only what the coach has not set by hand.
      all.addEventListener("click", function () {
        untouched.forEach(applySuggestion);
        writeTempo();
      });
      chips.appendChild(all);
    }
    box.appendChild(chips);
  }

  // ---- The exercise picker -------------------------------------------------------------------
  var catalogue = null;
  var catalogueLoading = null;

  function loadCatalogue() {
    if (catalogue) return Promise.resolve(catalogue);
    if (catalogueLoading) return catalogueLoading;
    catalogueLoading = fetch("/assets/exercises.json", { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        var muscles = data.primary_muscles;
        var equipment = data.equipment;
        catalogue = {
          muscles: muscles,
          equipment: equipment,
          exercises: data.exercises.map(function (row) {
            return {
              name: row[0],
              muscles: row[1].map(function (index) { return muscles[index]; }),
              equipment: row[2] === null ? null : equipment[row[2]],
              search: row[0].toLowerCase(),
            };
          }),
        };
        fillSelect($("picker-muscle"), muscles);
        fillSelect($("picker-equipment"), equipment);
        return catalogue;
      })
      .catch(function (error) {
        catalogueLoading = null;
        throw error;
      });
    return catalogueLoading;
  }

  function fillSelect(select, values) {
    values.forEach(function (value) {
      var option = element("option", null, value);
      option.value = value;
      select.appendChild(option);
    });
  }

  var SHOWN = 80;
  function drawPicker() {
    var list = $("picker-list");
    list.textContent = "";
    if (!catalogue) return;
    var words = $("picker-search").value.toLowerCase().split(/\s+/).filter(Boolean);
    var muscle = $("picker-muscle").value;
    var equipment = $("picker-equipment").value;
    var found = catalogue.exercises.filter(function (exercise) {
      if (muscle && exercise.muscles.indexOf(muscle) < 0) return false;
      if (equipment && exercise.equipment !== equipment) return false;
      return words.every(function (word) { return exercise.search.indexOf(word) >= 0; });
    });
    W.setText($("picker-count"), found.length > SHOWN
      ? found.length + " exercises: the first " + SHOWN + " shown, type to narrow them"
      : found.length === 1 ? "1 exercise" : found.length + " exercises");
    found.slice(0, SHOWN).forEach(function (exercise) {
      var detail = exercise.muscles.join(", ") + (exercise.equipment ? " · " + exercise.equipment : "");
      list.appendChild(row(exercise.name, detail, function () { pick(exercise); }));
    });
  }

  function openPicker() {
    $("picker").hidden = false;
    W.setText($("picker-count"), "Loading the exercises…");
    loadCatalogue().then(function () {
      drawPicker();
      $("picker-search").focus();
    }, function () {
      W.setText($("picker-count"), "The exercise list did not load: try again");
    });
  }
  function closePicker() { $("picker").hidden = true; }

  function pick(exercise) {
    tempo.exercise = exercise;
    closePicker();
    var chosen = $("exercise-chosen");
    W.setText(chosen, exercise.name + " · " + exercise.muscles.join(", ")
      + (exercise.equipment ? " · " + exercise.equipment : ""));
    chosen.hidden = false;
    $("exercise-clear").hidden = false;
    W.setText($("exercise-pick"), "Another exercise");
    writeTempo();
  }

  $("exercise-pick").addEventListener("click", openPicker);
  $("exercise-clear").addEventListener("click", function () {
    tempo.exercise = null;
    $("exercise-chosen").hidden = true;
    $("exercise-clear").hidden = true;
    W.setText($("exercise-pick"), "Pick an exercise");
    writeTempo();
  });
  $("picker-close").addEventListener("click", closePicker);
  $("picker").addEventListener("click", function (event) {
    if (event.target === $("picker")) closePicker();
  });
  var pickerTimer = null;
  $("picker-search").addEventListener("input", function () {
    clearTimeout(pickerTimer);
    pickerTimer = setTimeout(drawPicker, 80);
  });
  $("picker-muscle").addEventListener("change", drawPicker);
  $("picker-equipment").addEventListener("change", drawPicker);
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    if (!$("picker").hidden) closePicker();
    else if (!$("confirm").hidden) closeConfirm(false);
  });

  // ---- Start and stop ------------------------------------------------------------------------
  var clockStarted = false;
  function startApp() {
    showScreen("app");
    if (!clockStarted) {
      clockStarted = true;
      W.clock.start();
    }
    startFeed();
    if (!running) {
      running = true;
      requestAnimationFrame(frame);
    }
    openTab(currentTab);
    drawBuilder();
    loadMediaChoices();
    loadLibrary();
  }

  /// The library's names for the builder, from the presets reply.
  function loadLibrary() {
    request("GET", "/api/presets").then(function (result) {
      if (result.body && result.body.ok) fillLibrary(result.body.library);
    });
  }

  function stopApp() {
    running = false;
    if (feed) feed.close();
    feed = null;
  }

  $("signout").addEventListener("click", function () {
    request("POST", "/api/logout", {}).then(function () { showSignIn("Signed out"); });
  });

  // ---- For tests: what the remote shows, and presses made the way a coach makes them --------
  // Read-only: each call goes through the page's own keys and buttons, so a test in a real
  // browser checks what a coach's taps do.
  function clickCommand(name) {
    if (name === "start" || name === "pause" || name === "resume" || name === "toggle") {
      $("toggle").click();
    } else if (name === "reset" || name === "mute") {
      $(name).click();
    } else {
      var button = document.querySelector('.control[data-command="' + name + '"]');
      if (button) button.click();
    }
  }
  window.wodclockRemote = Object.freeze({
    needsPin: function () { return !screens.signin.hidden; },
    signedIn: function () { return !screens.app.hidden; },
    enterPin: function (digits) {
      String(digits).split("").forEach(pressKey);
      pressKey("ok");
    },
    pinMessage: function () { return $("pin-error").textContent; },
    press: clickCommand,
    shownState: function () { return current ? current.face.state : null; },
    type: function (value) {
      text.value = value;
      text.dispatchEvent(new Event("input"));
    },
    explanation: function () {
      return document.querySelector("#explain .explain-summary") ? $("explain").textContent : "";
    },
    problem: function () {
      return document.querySelector("#explain .explain-error") ? $("explain").textContent : "";
    },
    load: function (start) { $(start ? "load-start" : "load").click(); },
    // Whether the live clock and the start/pause button are on the screen.
    liveInView: function () {
      var live = $("live").getBoundingClientRect();
      var toggle = $("toggle").getBoundingClientRect();
      return live.top >= -1 && toggle.bottom <= window.innerHeight + 1;
    },
    mediaChoices: function () {
      return Array.prototype.slice.call($("media-pick").options, 1).map(function (option) {
        return option.value;
      });
    },
    attachMedia: function (name, caret) {
      if (typeof caret === "number") text.setSelectionRange(caret, caret);
      attachMedia(name);
      return text.value;
    },
    confirmingReplace: function () { return !$("confirm").hidden; },
    confirmReplace: function () { $("confirm-yes").click(); },
  });

  request("GET", "/api/session").then(function (result) {
    var body = result.body;
    if (!body || !body.ok) {
      showSignIn(errorText(result, "The clock does not answer"));
    } else if (!body.remote) {
      showScreen("off");
    } else if (body.signed_in) {
      startApp();
    } else {
      showSignIn();
    }
  });
})();
