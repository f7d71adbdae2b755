// The judge console works without this file; it only asks before a few
// actions that are hard to undo. Forms opt in with data-confirm="message".
"use strict";
document.addEventListener("submit", function (ev) {
  var form = ev.target;
  var msg = form.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) {
    ev.preventDefault();
  }
});
