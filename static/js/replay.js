// Podpolye: the replay's keyboard and slider. Every control is already a link or a
// GET form that works without this file; htmx (when loaded) swaps the replay section
// in place. This adds: ← / → for the previous / next step (mirrored on a right-to-left
// page, where "previous" points right), Home / End for the first and last, and a form
// that follows the slider even without htmx.
(function () {
  "use strict";

  function replay() {
    return document.querySelector("[data-replay]");
  }

  function typing(target) {
    if (!(target instanceof Element)) return false;
    if (target.closest("[contenteditable]")) return true;
    var tag = target.tagName;
    return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
  }

  var KEYS = {
    ArrowLeft: "[data-replay-prev]",
    ArrowRight: "[data-replay-next]",
    Home: "[data-replay-first]",
    End: "[data-replay-last]"
  };
  if (document.documentElement.dir === "rtl") {
    KEYS.ArrowLeft = "[data-replay-next]";
    KEYS.ArrowRight = "[data-replay-prev]";
  }

  // Numbers people read, in the page language's digits (the server does the same
  // with its "digits" filter); the slider's own value stays ASCII.
  var DIGITS = { fa: "۰۱۲۳۴۵۶۷۸۹" };
  function shown(text) {
    var digits = DIGITS[document.documentElement.lang];
    if (!digits) return text;
    return String(text).replace(/[0-9]/g, function (d) { return digits.charAt(+d); });
  }

  document.addEventListener("keydown", function (event) {
    var section = replay();
    var selector = KEYS[event.key];
    if (!section || !selector || event.altKey || event.ctrlKey || event.metaKey) return;
    if (typing(event.target)) return; // the slider and the select keep their own keys
    var link = section.querySelector(selector);
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    event.preventDefault();
    link.click();
  });

  // Without htmx the slider and the select submit their form themselves.
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (window.htmx || !(target instanceof Element)) return;
    var form = target.closest(".replay-form");
    if (form) form.submit();
  });

  // While the slider moves, say which step it points at.
  document.addEventListener("input", function (event) {
    var target = event.target;
    if (!(target instanceof HTMLInputElement) || target.id !== "replay-step") return;
    var output = target.form && target.form.querySelector("output");
    var section = replay();
    if (output && section) output.textContent = shown(target.value + " / " + section.getAttribute("data-last"));
  });

  // After htmx swaps the section in, keep the keyboard focus on the same control.
  var focusedId = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var section = replay();
    var active = document.activeElement;
    focusedId = section && active && active.id && section.contains(active) ? active.id : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!focusedId) return;
    var element = document.getElementById(focusedId);
    if (element) element.focus();
    focusedId = null;
  });
})();
