// The table page: connection dot, the team picker, small comforts around forms sent
// over the socket, keeping opened lines open across pushes, and telling a player when
// the table waits for them. Everything here is optional: without JavaScript every
// form posts, the face-down card is a native <details>, and a reload shows the rest.
(function () {
  "use strict";

  // --- connection and pending moves -----------------------------------------------
  var socketOpen = false;
  function connection(state) {
    var dot = document.getElementById("connection");
    socketOpen = state === "on";
    if (dot) {
      dot.classList.remove("on", "off");
      if (state === "on") dot.classList.add("on");
      if (state === "off") dot.classList.add("off");
      dot.textContent = dot.getAttribute("data-" + state) || dot.textContent;
    }
    document.body.setAttribute("data-socket", state);
  }
  connection("connecting");
  document.body.addEventListener("htmx:wsConnecting", function () { connection("connecting"); });
  document.body.addEventListener("htmx:wsOpen", function () { connection("on"); });
  document.body.addEventListener("htmx:wsClose", function () { connection("off"); });
  document.body.addEventListener("htmx:wsError", function () { connection("off"); });

  // A move sent over the socket: block a double submit and show it as pending until
  // the table answers (a push with a newer version, or an error). A move tapped while
  // the socket is down waits, marked pending, and goes when it reconnects.
  document.body.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target instanceof Element ? event.target.closest("form") : null;
    if (!form) return;
    if (form.hasAttribute("data-reset-on-send")) { form.reset(); return; }
    pending(form);
  });
  document.body.addEventListener("htmx:wsConfigSend", function (event) {
    var form = event.target instanceof Element ? event.target.closest("form") : null;
    if (!form || form.hasAttribute("data-reset-on-send")) return;
    // Each move form names its move once (a hidden move_id): every send of it, a
    // retry included, carries the same name, and the server applies it once.
    var field = moveIdField(form);
    if (event.detail && event.detail.parameters) event.detail.parameters.move_id = field.value;
    if (!socketOpen) pending(form);
  });
  function newMoveId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function moveIdField(form) {
    var field = form.querySelector("input[name=move_id]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "move_id";
      form.appendChild(field);
    }
    if (!field.value) field.value = newMoveId();
    return field;
  }
  // A move sent just before the socket closed may or may not have reached the
  // table. Its form is still on the page only if no answer redrew it: when the
  // socket opens again such a move is sent once more, the same message with the
  // same move_id, so the table applies it exactly once either way.
  var unanswered = null;
  document.body.addEventListener("htmx:wsBeforeSend", function (event) {
    var form = event.target instanceof Element ? event.target.closest("form") : null;
    if (form && !form.hasAttribute("data-reset-on-send") && event.detail) {
      unanswered = { form: form, message: event.detail.message };
    }
  });
  document.body.addEventListener("htmx:wsOpen", function (event) {
    var socket = event.detail && event.detail.socketWrapper;
    var again = unanswered;
    unanswered = null;
    if (socket && again && again.form.isConnected && again.form.classList.contains("pending")) {
      socket.send(again.message, again.form);
    }
  });
  function pending(form) {
    form.classList.add("pending");
    form.querySelectorAll("button").forEach(function (button) { button.disabled = true; });
    var error = document.getElementById("table-error");
    if (error) { error.textContent = ""; error.className = ""; }
  }

  // --- the team picker: the button works with exactly the right count, and tapping
  // a seat on the board picks it too.
  function updateTeamPicker(form) {
    var size = parseInt(form.getAttribute("data-team-size"), 10);
    // Every ticked box of the form: a Resistance team ("team"), a Mafia pair ("targets").
    var picked = form.querySelectorAll("input[type=checkbox]:checked");
    var button = form.querySelector("[data-submit-team]");
    if (button) button.disabled = picked.length !== size;
    var chosen = {};
    picked.forEach(function (box) { chosen[box.value] = true; });
    document.querySelectorAll(".board-seats li[data-seat]").forEach(function (row) {
      row.classList.toggle("picked", !!chosen[row.getAttribute("data-seat")]);
    });
  }
  document.addEventListener("change", function (event) {
    var form = event.target instanceof Element ? event.target.closest("form[data-team-size]") : null;
    if (form) updateTeamPicker(form);
  });
  document.addEventListener("click", function (event) {
    var row = event.target instanceof Element ? event.target.closest(".board-seats li[data-seat]") : null;
    var form = document.querySelector("form[data-team-size]");
    if (!row || !form) return;
    var box = form.querySelector("input[name=team][value='" + row.getAttribute("data-seat") + "']");
    if (!box) return;
    box.checked = !box.checked;
    updateTeamPicker(form);
  });
  document.body.classList.toggle("can-pick", !!document.querySelector("form[data-team-size]"));

  // --- opened lines and the card stay as the player left them across pushes -----------
  var open = {};
  function remember() {
    document.querySelectorAll("details[id]").forEach(function (details) {
      if (details.hasAttribute("data-keep-open")) open[details.id] = details.open;
    });
  }
  function restore() {
    Object.keys(open).forEach(function (id) {
      var details = document.getElementById(id);
      if (details && open[id]) details.open = true;
    });
  }
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details instanceof HTMLDetailsElement && details.id && details.hasAttribute("data-keep-open")) {
      open[details.id] = details.open;
    }
  }, true);

  // --- whose turn: the tab title, and a vibration if the player asked for one ---------
  var baseTitle = document.title;
  var table = document.getElementById("table");
  var vibrate = window.localStorage && localStorage.getItem("podpolye-vibrate") === "1";
  document.querySelectorAll("[data-pref=vibrate]").forEach(function (box) {
    box.checked = vibrate;
    box.addEventListener("change", function () {
      vibrate = box.checked;
      try { localStorage.setItem("podpolye-vibrate", vibrate ? "1" : "0"); } catch (e) { /* private mode */ }
    });
  });
  var wasMine = false;
  var lastAsked = "";
  function yourTurn() {
    var area = document.querySelector("#table-live .action-area");
    var mine = !!(area && area.querySelector("form"));
    var label = table ? table.getAttribute("data-your-turn") : "";
    document.title = mine && label ? "● " + label + " · " + baseTitle : baseTitle;
    if (mine && !wasMine && vibrate && navigator.vibrate) navigator.vibrate(200);
    // A new question for this player (another move, or the same kind at a new turn)
    // is announced as their move.
    var state = document.getElementById("table-state");
    var asked = mine ? (area.getAttribute("data-action") || "") + "@" + (state ? state.getAttribute("data-turn") : "") : "";
    announce(mine && asked !== lastAsked ? label : "");
    lastAsked = asked;
    wasMine = mine;
  }

  // --- heard, not only seen: the news, the banner and "your move" go to the page's
  // live region (#announcer) whenever they change, for a screen reader to say. A
  // running countdown is left out: it would be read every second.
  var lastSaid = "";
  function spoken(element) {
    var copy = element.cloneNode(true);
    copy.querySelectorAll("[data-timer], [data-countdown], [aria-hidden=true]").forEach(function (part) {
      part.remove();
    });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  function announce(turn) {
    var announcer = document.getElementById("announcer");
    if (!announcer) return;
    var parts = [];
    document.querySelectorAll("#table [data-news], #table [data-banner]").forEach(function (part) {
      var text = spoken(part);
      if (text) parts.push(/[.!?…:]$/.test(text) ? text : text + ".");
    });
    var said = parts.join(" ");
    if (said === lastSaid && !turn) return;
    lastSaid = said;
    announcer.textContent = (turn ? turn + ". " : "") + said;
  }

  // One socket message swaps in several parts, one after the other: whose turn it
  // is and what to announce are read once they are all in.
  var turnPending = false;
  function afterSwap() {
    document.querySelectorAll("form[data-team-size]").forEach(updateTeamPicker);
    document.body.classList.toggle("can-pick", !!document.querySelector("form[data-team-size]"));
    restore();
    if (turnPending) return;
    turnPending = true;
    window.setTimeout(function () { turnPending = false; yourTurn(); }, 0);
  }
  document.body.addEventListener("htmx:oobBeforeSwap", remember);
  document.body.addEventListener("htmx:beforeSwap", remember);
  document.body.addEventListener("htmx:oobAfterSwap", afterSwap);
  document.body.addEventListener("htmx:afterSwap", afterSwap);
  afterSwap();

  // --- the turn clock: the server sets the deadline (data-deadline, in ms) and the
  // time it drew the page (data-now), so a device whose clock is off still counts
  // the right time; at zero the server's runner plays the bot's move and pushes.
  // A family's countdowns (a speech timer: [data-countdown]) count the same way,
  // taking the server's time from the clock (hidden or not).
  var clockSkew = { stamp: null, offset: 0 };
  function countDown(clock) {
    var deadline = parseInt(clock.getAttribute("data-deadline"), 10);
    var left = Math.max(0, Math.ceil((deadline - (Date.now() + clockSkew.offset)) / 1000));
    var shown = clock.querySelector("[data-clock-left]");
    if (left === 0) {
      if (!clock.classList.contains("expired")) {
        clock.classList.add("expired");
        clock.textContent = clock.getAttribute("data-expired") || "";
      }
      return;
    }
    var text = Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
    var digits = clock.getAttribute("data-digits");
    if (digits && digits.length === 10) {
      text = text.replace(/[0-9]/g, function (d) { return digits.charAt(+d); });
    }
    if (shown) shown.textContent = text;
    clock.classList.toggle("low", left <= 10);
  }
  function tickClock() {
    var clock = document.getElementById("table-clock");
    var stamp = clock ? clock.getAttribute("data-now") : null;
    if (stamp && clockSkew.stamp !== stamp) {
      clockSkew.stamp = stamp;
      clockSkew.offset = parseInt(stamp, 10) - Date.now();
    }
    if (clock && clock.hasAttribute("data-deadline")) countDown(clock);
    document.querySelectorAll("[data-countdown][data-deadline]").forEach(countDown);
  }
  tickClock();
  window.setInterval(tickClock, 500);

  // --- who is away: each notice counts its grace down the same way (data-away-until
  // and the server's data-now, in ms); at zero the runner's bot plays for that seat.
  // A line shows only once its player has been away a few seconds: a page reloading
  // (its socket closing and opening again) does not flash its player away.
  var AWAY_SETTLE_MS = 3000;
  function tickAway() {
    document.querySelectorAll("#table-presence [data-away-since]").forEach(function (line) {
      var offset = parseInt(line.getAttribute("data-now"), 10) - (line._loadedAt || (line._loadedAt = Date.now()));
      var since = parseInt(line.getAttribute("data-away-since"), 10);
      line.hidden = Date.now() + offset - since < AWAY_SETTLE_MS;
      if (line.classList.contains("expired") || !line.hasAttribute("data-away-until")) return;
      var until = parseInt(line.getAttribute("data-away-until"), 10);
      var left = Math.max(0, Math.ceil((until - (Date.now() + offset)) / 1000));
      if (left === 0) {
        line.classList.add("expired");
        line.textContent = line.getAttribute("data-expired") || "";
        return;
      }
      var text = Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
      var digits = line.getAttribute("data-digits");
      if (digits && digits.length === 10) {
        text = text.replace(/[0-9]/g, function (d) { return digits.charAt(+d); });
      }
      var shown = line.querySelector("[data-clock-left]");
      if (shown) shown.textContent = text;
    });
  }
  tickAway();
  window.setInterval(tickAway, 500);

  // A form marked data-confirm asks first (without JavaScript, the host's such forms
  // sit behind a <details> that has to be opened first).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form instanceof HTMLFormElement && form.hasAttribute("data-confirm")) {
      if (!window.confirm(form.getAttribute("data-confirm"))) {
        // Before the form's own listeners (the socket's send) hear of it.
        event.preventDefault();
        event.stopPropagation();
      }
    }
  }, true);
})();
