// The ruling view (templates/pages/ruling.html) works without this file:
// every button posts the form, and the server answers with the page. This
// file makes it quick at the table: a tap on a corner or an edge of the
// board names it and adds the step, the number keys choose a colour and
// the letter keys what a tap places, and every answer swaps in only the
// parts the server marks data-live. No rule is computed here: the steps
// are the server's, and so is every answer.
"use strict";
(function () {
  var form = document.getElementById("ruling-form");
  if (!form || !window.fetch || !window.DOMParser || typeof postParts !== "function") {
    return;
  }
  function send(action) {
    var data = new URLSearchParams(new FormData(form));
    data.set("action", action);
    data.set("live", "1");
    var focused = document.activeElement && document.activeElement.id;
    postParts(form, data).then(function (latest) {
      if (!latest) {
        return;
      }
      if (action === "add" && !document.getElementById("ruling-error")) {
        form.elements.typed.value = "";
      }
      if (focused && document.getElementById(focused)) {
        document.getElementById(focused).focus();
      }
    }).catch(function () {});
  }
  form.addEventListener("click", function (ev) {
    var target = ev.target.closest && ev.target.closest("[data-at],[data-edge]");
    if (!target) {
      return;
    }
    form.elements.typed.value = target.getAttribute("data-at") || target.getAttribute("data-edge");
    send("add");
  });
  form.addEventListener("submit", function (ev) {
    var button = ev.submitter;
    var action = button ? button.value : "add";
    if (action === "save") {
      return; // saving posts the form, and the table's page follows
    }
    ev.preventDefault();
    send(action);
  });
  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) && t.type !== "radio")) {
      return;
    }
    var pick = form.querySelector('input[type=radio][data-key="' + ev.key.toLowerCase() + '"]');
    if (pick) {
      pick.checked = true;
      ev.preventDefault();
    }
  });
})();
