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

// A form with data-live-check is checked by the server as the judge types:
// it is posted (to its action attribute: form.action would be the
// buttons named "action") with live=1, and the parts of the page the answer marks
// data-live replace their counterparts here, with each input's
// aria-invalid. The counting and the rules are the server's: nothing is
// computed here.
(function () {
  var form = document.querySelector("form[data-live-check]");
  if (!form || !window.fetch || !window.DOMParser) {
    return;
  }
  var timer = 0;
  var asked = 0;
  function check() {
    var n = ++asked;
    var data = new URLSearchParams(new FormData(form));
    data.set("live", "1");
    fetch(form.getAttribute("action"), { method: "POST", body: data, credentials: "same-origin" })
      .then(function (res) { return res.text(); })
      .then(function (html) {
        if (n !== asked) {
          return; // a later check is under way
        }
        var doc = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live]").forEach(function (el) {
          var fresh = doc.getElementById(el.id);
          if (fresh) {
            el.innerHTML = fresh.innerHTML;
          }
        });
        form.querySelectorAll("input[id]").forEach(function (input) {
          var fresh = doc.getElementById(input.id);
          if (fresh && fresh.getAttribute("aria-invalid") === "true") {
            input.setAttribute("aria-invalid", "true");
          } else if (fresh) {
            input.removeAttribute("aria-invalid");
          }
        });
      })
      .catch(function () {});
  }
  form.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(check, 250);
  });
  form.addEventListener("change", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(check, 50);
  });
})();
