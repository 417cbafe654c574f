// Podpolye: the little behaviour no library gives us. No inline scripts (the CSP forbids them).
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // A select marked data-autosubmit submits its form on change (the language switcher).
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target instanceof HTMLSelectElement && target.hasAttribute("data-autosubmit") && target.form) {
      target.form.submit();
    }
  });

  // A button marked data-copy="#id" copies that field's value (the share link).
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    if (!button) return;
    var field = document.querySelector(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    if (navigator.clipboard) {
      navigator.clipboard.writeText(field.value).catch(function () { document.execCommand("copy"); });
    } else {
      document.execCommand("copy");
    }
    var done = button.getAttribute("data-copied");
    if (done) button.textContent = done;
  });
  // A socket the server closed with 4503 (its channel layer, Redis, cannot be
  // reached now: docs/live.md) is opened again after a pause, doubling from 1 s to
  // 30 s with jitter; htmx's ws extension retries only 1006, 1011, 1012 and 1013.
  var CLOSE_UNAVAILABLE = 4503;
  var unavailableTries = 0;
  document.body.addEventListener("htmx:wsClose", function (event) {
    var detail = event.detail || {};
    var closed = detail.event;
    if (!closed || closed.code !== CLOSE_UNAVAILABLE || !detail.socketWrapper) return;
    var ceiling = Math.min(30000, 1000 * Math.pow(2, unavailableTries));
    unavailableTries += 1;
    window.setTimeout(function () {
      detail.socketWrapper.reconnect();
    }, ceiling / 2 + Math.random() * ceiling / 2);
  });
  document.body.addEventListener("htmx:wsAfterMessage", function () { unavailableTries = 0; });
})();
