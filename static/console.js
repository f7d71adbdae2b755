// The judge console works without this file. It asks before a few actions
// that are hard to undo (forms opt in with data-confirm="message"), and
// shows what the server computes as the judge types: a form with
// data-live="id" posts itself, with part=<its data-live-part, or
// "preview">, after each pause in typing, and the element id shows the
// part of the page the server answers. No rule is computed here.
"use strict";
document.addEventListener("submit", function (ev) {
  var form = ev.target;
  var msg = form.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) {
    ev.preventDefault();
  }
});

(function () {
  var timers = new WeakMap();
  var asked = new WeakMap();

  function refresh(form) {
    var target = document.getElementById(form.getAttribute("data-live"));
    if (!target) {
      return;
    }
    var body = new URLSearchParams(new FormData(form));
    body.set("part", form.getAttribute("data-live-part") || "preview");
    var n = (asked.get(form) || 0) + 1;
    asked.set(form, n);
    // Not form.action: the form's buttons are named "action".
    fetch(form.getAttribute("action"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    }).then(function (res) {
      return res.ok ? res.text() : null;
    }).then(function (html) {
      // Only the answer to the latest question is shown.
      if (html !== null && asked.get(form) === n) {
        target.innerHTML = html;
      }
    }).catch(function () {});
  }

  function changed(ev) {
    var form = ev.target.form;
    if (!form || !form.hasAttribute("data-live")) {
      return;
    }
    clearTimeout(timers.get(form));
    timers.set(form, setTimeout(function () { refresh(form); }, 250));
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
})();
