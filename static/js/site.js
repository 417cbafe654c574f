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
})();
