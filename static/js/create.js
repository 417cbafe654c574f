// Create-table page: show only the chosen game's options (all are shown without JS;
// the server reads only the chosen game's).
(function () {
  "use strict";
  function sync() {
    var chosen = document.querySelector("input[name=ruleset]:checked");
    document.querySelectorAll("[data-options-for]").forEach(function (group) {
      group.hidden = !chosen || group.getAttribute("data-options-for") !== chosen.value;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target instanceof HTMLInputElement && event.target.name === "ruleset") sync();
  });
  sync();
})();
