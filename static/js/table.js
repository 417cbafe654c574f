// The table page: connection dot, the face-down role card, the team picker, small
// comforts around forms sent over the socket. Everything here is optional: without
// JavaScript every form posts and the page reloads.
(function () {
  "use strict";

  function connection(state) {
    var dot = document.getElementById("connection");
    if (!dot) return;
    dot.classList.remove("on", "off");
    if (state === "on") dot.classList.add("on");
    if (state === "off") dot.classList.add("off");
    dot.textContent = dot.getAttribute("data-" + state) || dot.textContent;
    document.body.setAttribute("data-socket", state);
  }

  document.body.addEventListener("htmx:wsConnecting", function () { connection("connecting"); });
  document.body.addEventListener("htmx:wsOpen", function () { connection("on"); });
  document.body.addEventListener("htmx:wsClose", function () { connection("off"); });
  document.body.addEventListener("htmx:wsError", function () { connection("off"); });

  // A form sent over the socket: clear the chat box, block a double submit until the
  // table's answer arrives (the server refuses a second vote anyway).
  document.body.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target instanceof Element ? event.target.closest("form") : null;
    if (!form) return;
    if (form.hasAttribute("data-reset-on-send")) {
      form.reset();
      return;
    }
    form.querySelectorAll("button").forEach(function (button) { button.disabled = true; });
    var error = document.getElementById("table-error");
    if (error) { error.textContent = ""; error.className = ""; }
  });

  // The role card: hold (or press the button) to look; it turns back when released.
  function reveal(card, on) {
    card.classList.toggle("shown", on);
    var button = card.querySelector("[data-reveal]");
    if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
  }
  document.addEventListener("pointerdown", function (event) {
    var card = event.target instanceof Element ? event.target.closest("[data-role-card]") : null;
    if (card && card.querySelector("[data-reveal]")) reveal(card, true);
  });
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (name) {
    document.addEventListener(name, function () {
      document.querySelectorAll("[data-role-card].shown").forEach(function (card) {
        if (card.querySelector("[data-reveal]")) reveal(card, false);
      });
    }, true);
  });
  document.addEventListener("keydown", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-reveal]") : null;
    if (button && (event.key === " " || event.key === "Enter")) {
      event.preventDefault();
      reveal(button.closest("[data-role-card]"), true);
    }
  });
  document.addEventListener("keyup", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-reveal]") : null;
    if (button) reveal(button.closest("[data-role-card]"), false);
  });

  // The team picker: the propose button works only with exactly the right count.
  function updateTeamPicker(form) {
    var size = parseInt(form.getAttribute("data-team-size"), 10);
    var chosen = form.querySelectorAll("input[name=team]:checked").length;
    var button = form.querySelector("[data-submit-team]");
    if (button) button.disabled = chosen !== size;
  }
  document.addEventListener("change", function (event) {
    var form = event.target instanceof Element ? event.target.closest("form[data-team-size]") : null;
    if (form) updateTeamPicker(form);
  });
  function refresh() {
    document.querySelectorAll("form[data-team-size]").forEach(updateTeamPicker);
  }
  document.body.addEventListener("htmx:oobAfterSwap", refresh);
  document.body.addEventListener("htmx:afterSwap", refresh);
  refresh();

  // A form marked data-confirm asks first.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form instanceof HTMLFormElement && form.hasAttribute("data-confirm")) {
      if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
    }
  }, true);
})();
