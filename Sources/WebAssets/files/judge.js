// SPDX-License-Identifier: MIT
// The judge's page at `/judge`: one lane per phone, behind the remote's PIN. The lane is chosen
// on the page (from the status's heat, remembered on the phone); its athlete and its time are
// shown large for the athlete to read; Finish, Tiebreak, Undo and the score at the cap are the
// control socket's `lane` commands, posted to /api/command as the remote posts its own.
"use strict";

(function () {
  var W = window.Wodclock;
  function $(id) { return document.getElementById(id); }
  var LANE_KEY = "wodclock.judge.lane";

  // ---- Talking to the daemon -----------------------------------------------------------------
  /// A JSON request; resolves to {status, body, headers}. A lost session brings the PIN pad.
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
        if (response.status === 401 && body && body.error && body.error.code === "sign_in") {
          showSignIn("Signed out: enter the PIN again, then press again");
        }
        return { status: response.status, body: body, headers: response.headers };
      });
    }, function () {
      return { status: 0, body: null, headers: null };
    });
  }

  /// The daemon's words for a refusal, its hint on the next line.
  function errorText(result) {
    var error = result.body && result.body.error;
    if (error && error.message) return error.message + (error.hint ? "\n" + error.hint : "");
    if (result.status === 0) return "The clock does not answer: is the phone on the gym's Wi-Fi?";
    return "The clock refused (HTTP " + result.status + ")";
  }

  // ---- Screens -------------------------------------------------------------------------------
  var screens = { signin: $("signin"), app: $("app"), off: $("remote-off") };
  function showScreen(name) {
    Object.keys(screens).forEach(function (key) { screens[key].hidden = key !== name; });
  }

  // ---- The PIN pad (the remote's, with the same keys and rules) ------------------------------
  var pin = "";
  var lockedUntil = 0;
  function drawPin() {
    var dots = $("pin-dots");
    dots.textContent = "";
    for (var i = 0; i < Math.max(4, pin.length); i++) {
      var dot = document.createElement("span");
      dot.className = "pin-dot" + (i < pin.length ? " filled" : "");
      dots.appendChild(dot);
    }
  }
  function pressKey(key) {
    if (performance.now() < lockedUntil) return;
    if (key === "ok") { submitPin(); return; }
    if (key === "back") pin = pin.slice(0, -1);
    else if (/^[0-9]$/.test(key) && pin.length < 12) pin += key;
    W.setText($("pin-error"), "");
    drawPin();
  }
  function submitPin() {
    if (pin.length < 4) { W.setText($("pin-error"), "The PIN has 4 to 12 digits"); return; }
    var tried = pin;
    pin = "";
    drawPin();
    request("POST", "/api/login", { pin: tried }).then(function (result) {
      if (result.status === 200 && result.body && result.body.ok) {
        W.setText($("pin-error"), "");
        startApp();
      } else if (result.status === 404) {
        showScreen("off");
      } else {
        if (result.status === 429) {
          var seconds = parseInt(result.headers && result.headers.get("Retry-After"), 10) || 2;
          lockedUntil = performance.now() + Math.min(600, seconds) * 1000;
        }
        W.setText($("pin-error"), errorText(result));
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
    pin = "";
    drawPin();
    W.setText($("signin-lead"), lead || "Enter the coach's PIN");
    showScreen("signin");
  }

  // ---- The lane ------------------------------------------------------------------------------
  /// The last status event ({status, clock, face}), the lane this phone judges (a number, or
  /// null until chosen), and whether the lane list is open.
  var current = null;
  var feed = null;
  var lane = readLane();
  var choosing = false;

  function readLane() {
    try {
      var stored = parseInt(localStorage.getItem(LANE_KEY), 10);
      return stored >= 1 && stored <= 64 ? stored : null;
    } catch (error) {
      return null;
    }
  }
  function chooseLane(number) {
    lane = number;
    choosing = false;
    try { localStorage.setItem(LANE_KEY, String(number)); } catch (error) { /* private mode */ }
    notice("");
    draw();
  }

  function heat() { return current && current.status && current.status.heat; }
  function lanes() {
    var h = heat();
    return h && Array.isArray(h.lanes) ? h.lanes : [];
  }
  function laneEntry() {
    var list = lanes();
    for (var i = 0; i < list.length; i++) if (list[i].lane === lane) return list[i];
    return null;
  }

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined && content !== null) node.textContent = content;
    return node;
  }

  /// `1st`, `2nd`, `3rd`, `11th`, `22nd`.
  function ordinal(n) {
    var tens = n % 100;
    var suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
    return n + suffix;
  }

  /// The lane's result as the clock words it (`7:42.3`, `CAP+12`, `5+12`), else its finish.
  function resultText(entry) {
    if (typeof entry.score === "string" && entry.score) return entry.score;
    if (typeof entry.finish_s === "number") return W.formatSeconds(entry.finish_s);
    return "";
  }

  var laneListKey = null;
  function drawLaneChoice() {
    var list = lanes();
    var key = JSON.stringify(list.map(function (entry) { return [entry.lane, entry.athlete]; }));
    W.setText($("lane-choice-note"), list.length ? "" : "No lanes yet: the coach loads the heats.");
    if (key === laneListKey) return;
    laneListKey = key;
    var grid = $("lane-grid");
    grid.textContent = "";
    list.forEach(function (entry) {
      var button = element("button", "lane-pick");
      button.type = "button";
      button.setAttribute("data-lane", entry.lane);
      button.appendChild(element("span", "lane-pick-number", String(entry.lane)));
      button.appendChild(element("span", "lane-pick-athlete", entry.athlete || "Lane " + entry.lane));
      button.addEventListener("click", function () { chooseLane(entry.lane); });
      grid.appendChild(button);
    });
  }

  /// What changes with a status: the heat line, the lane list or the lane's card.
  function draw() {
    var h = heat();
    W.setText($("heat"), h ? "Heat " + h.number + (h.of ? "/" + h.of : "") : "");
    W.setText($("lane-switch"), lane ? "Lane " + lane + " ▾" : "Choose a lane");
    var entry = laneEntry();
    var picking = choosing || !entry;
    W.show($("no-heat"), !h && !choosing);
    W.show($("lane-choice"), !!h && picking);
    W.show($("lane"), !!entry && !picking);
    document.body.classList.toggle("lane-finished", !!entry && entry.state !== "working");
    if (h && picking) drawLaneChoice();
    if (!entry || picking) return;
    W.setText($("athlete"), entry.athlete || "Lane " + entry.lane);
    W.setText($("division"), entry.division || "");
    var state = entry.state;
    var words = { working: "working", finished: "finished", capped: "capped", scored: "scored" };
    var line = words[state] || state;
    if (typeof entry.place === "number") line += " · " + ordinal(entry.place);
    var tiebreaks = Array.isArray(entry.tiebreaks_s) ? entry.tiebreaks_s : [];
    if (tiebreaks.length) {
      line += " · tiebreak " + tiebreaks.map(function (s) { return W.formatSeconds(s); }).join(", ");
    }
    W.setText($("state"), line);
    var finishButton = $("finish");
    finishButton.disabled = state !== "working" || finishButton.classList.contains("pending");
    W.setText(finishButton, state === "working" ? "Finish" : "Finished");
    // The score at the cap: reps for a For Time, rounds + reps for an AMRAP, once the workout
    // has ended or the lane has a score to correct.
    var status = current.status;
    var ended = status.state === "finished" || state === "capped" || state === "scored";
    var amrap = status.mode === "amrap";
    W.show($("reps-entry"), ended && !amrap && state !== "finished");
    W.show($("score-entry"), ended && amrap);
    drawTime();
  }

  /// The big time: the running clock while the athlete works, the lane's result after.
  function drawTime() {
    var entry = laneEntry();
    if (!entry || !current) return;
    var text = resultText(entry);
    if (entry.state === "working") {
      var at = W.clock.now();
      if (at === null) at = current.clock.server_ms;
      text = feed && feed.isOffline() ? "–:––" : W.digitsText(current.clock, at);
      if (text === null) text = current.face.digits || "";
    }
    W.setText($("time"), text);
  }

  function frame() {
    requestAnimationFrame(frame);
    drawTime();
  }

  // ---- Presses -------------------------------------------------------------------------------
  var noticeTimer = null;
  function notice(text, kind) {
    var element = $("notice");
    W.setText(element, text);
    element.className = "notice" + (kind ? " notice-" + kind : "");
    clearTimeout(noticeTimer);
    if (text && kind !== "error") noticeTimer = setTimeout(function () { notice(""); }, 4000);
  }

  /// A lane command from a button: marked at once (a tap shows before the clock answers), sent
  /// once (a second tap while it is on its way does nothing), then landed or refused in words.
  function press(button, payload) {
    if (button.classList.contains("pending")) return Promise.resolve(null);
    button.classList.add("pending");
    button.disabled = true;
    payload.cmd = "lane";
    payload.lane = lane;
    return request("POST", "/api/command", payload).then(function (result) {
      button.classList.remove("pending");
      button.disabled = false;
      if (result.status === 200 && result.body && result.body.ok) {
        button.classList.remove("landed");
        void button.offsetWidth;
        button.classList.add("landed");
        notice("");
        if (result.body.status) current.status = result.body.status;
      } else if (result.status !== 401) {
        notice(errorText(result), "error");
      }
      draw();
      return result;
    });
  }

  $("finish").addEventListener("click", function () {
    var entry = laneEntry();
    if (!entry || entry.state !== "working") return;
    press($("finish"), { op: "finish" });
  });
  $("tiebreak").addEventListener("click", function () {
    press($("tiebreak"), { op: "tiebreak" });
  });
  $("undo").addEventListener("click", function () {
    var entry = laneEntry();
    var what = entry && resultText(entry) ? " (" + resultText(entry) + ")" : "";
    confirmSheet("Undo lane " + lane + "'s last entry" + what + "?").then(function (yes) {
      if (yes) press($("undo"), { op: "undo" });
    });
  });

  /// A whole number of at most `digits` digits, or null.
  function wholeNumber(text, digits) {
    var value = String(text).trim();
    return new RegExp("^[0-9]{1," + digits + "}$").test(value) ? parseInt(value, 10) : null;
  }

  $("reps-entry").addEventListener("submit", function (event) {
    event.preventDefault();
    var reps = wholeNumber($("reps").value, 4);
    if (reps === null) { notice("Reps: a whole number, such as 12", "error"); return; }
    press($("reps-entry").querySelector("button"), { op: "reps", reps: reps });
  });
  $("score-entry").addEventListener("submit", function (event) {
    event.preventDefault();
    var rounds = wholeNumber($("rounds").value || "0", 3);
    var reps = wholeNumber($("score-reps").value || "0", 4);
    if (rounds === null || reps === null) {
      notice("Rounds and reps: whole numbers, such as 5 + 12", "error");
      return;
    }
    press($("score-entry").querySelector("button"), { op: "score", score: rounds + "+" + reps });
  });

  $("lane-switch").addEventListener("click", function () {
    choosing = !choosing || !laneEntry();
    draw();
  });

  // ---- The confirm sheet ---------------------------------------------------------------------
  var confirmResolve = null;
  function confirmSheet(text) {
    W.setText($("confirm-text"), text);
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

  // ---- Start ---------------------------------------------------------------------------------
  var started = false;
  function startApp() {
    showScreen("app");
    if (started) return;
    started = true;
    W.clock.start();
    feed = new W.EventFeed({
      status: function (payload) {
        if (!payload || !payload.status || !payload.clock) return;
        current = payload;
        draw();
      },
      offline: function (isOffline) {
        document.body.classList.toggle("offline", isOffline);
        W.setText($("link-state"), isOffline
          ? (feed && feed.connectedOnce ? "offline — reconnecting" : "connecting…") : "live");
      },
    });
    feed.connect();
    requestAnimationFrame(frame);
    draw();
  }

  // ---- For tests: taps made the way a judge makes them -------------------------------------
  window.wodclockJudge = Object.freeze({
    needsPin: function () { return !screens.signin.hidden; },
    signedIn: function () { return !screens.app.hidden; },
    enterPin: function (digits) {
      String(digits).split("").forEach(pressKey);
      pressKey("ok");
    },
    lanes: function () {
      return Array.prototype.map.call(document.querySelectorAll(".lane-pick"), function (b) {
        return Number(b.getAttribute("data-lane"));
      });
    },
    pickLane: function (number) {
      var button = document.querySelector('.lane-pick[data-lane="' + number + '"]');
      if (button) button.click();
      return !!button;
    },
    lane: function () { return lane; },
    finish: function () { $("finish").click(); },
    shown: function () {
      return {
        athlete: $("athlete").textContent, time: $("time").textContent,
        state: $("state").textContent, notice: $("notice").textContent,
        finishEnabled: !$("finish").disabled,
      };
    },
  });

  drawPin();
  request("GET", "/api/session").then(function (result) {
    var body = result.body;
    if (!body || !body.ok) showSignIn(errorText(result));
    else if (!body.remote) showScreen("off");
    else if (body.signed_in) startApp();
    else showSignIn();
  });
})();
