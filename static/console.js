// The judge console works without this file. It asks before a few actions
// that are hard to undo (forms opt in with data-confirm="message"), and
// fills in the penalty form's table; forms.js shows what the server
// computes as the judge types.
"use strict";
document.addEventListener("submit", function (ev) {
  var form = ev.target;
  var msg = form.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) {
    ev.preventDefault();
  }
});

// The penalty form (data-fill-table) fills in the table the chosen player
// plays at in the chosen round, as the page lists it on the player's option
// (data-tables="round:table ..."), until the judge types a table.
(function () {
  function fill(form) {
    var player = form.querySelector("#player");
    var round = form.querySelector("#round");
    var table = form.querySelector("#table");
    if (!player || !round || !table || table.dataset.typed) {
      return;
    }
    var opt = player.options[player.selectedIndex];
    var found = "";
    (opt && opt.getAttribute("data-tables") || "").split(" ").forEach(function (pair) {
      var rt = pair.split(":");
      if (rt.length === 2 && rt[0] === round.value) {
        found = rt[1];
      }
    });
    table.value = found;
  }
  document.addEventListener("change", function (ev) {
    var form = ev.target.form;
    if (form && form.hasAttribute("data-fill-table") && (ev.target.id === "player" || ev.target.id === "round")) {
      fill(form);
    }
  });
  document.addEventListener("input", function (ev) {
    if (ev.target.id === "table" && ev.target.form && ev.target.form.hasAttribute("data-fill-table")) {
      ev.target.dataset.typed = ev.target.value === "" ? "" : "1";
    }
  });
})();
