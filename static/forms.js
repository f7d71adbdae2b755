// The judges' console and the players' report form work without this
// file. It shows what the server computes without reloading the page:
//   - a form with data-live="id" sends itself, with part=<its
//     data-live-part, or "preview">, after each pause in typing, and the
//     element id shows the part of the page the server answers, or, when
//     the answer is made of parts marked data-live (a score sheet's
//     placings, counted VP and refusals), each part replaces the one with
//     its id;
//   - a form with data-live-submit="id" is posted the same way when
//     submitted, and the element id shows the part answered, which says
//     what this action did: the message the page showed for the action
//     before (data-flash) goes; the search box of the page (#q) keeps
//     the focus for the next name.
// And a form shown again after a refusal puts the focus on its first
// field marked invalid. The ruling view and the record page post their
// forms through postParts. No rule is computed here: the server answers
// every part.
"use strict";
(function () {
  var timers = new WeakMap();
  var asked = new WeakMap();
  var questions = new WeakMap();

  // ask sends form with part=part and shows the answer in target; only the
  // answer to the latest question asked of each target is shown, whichever
  // form asked it: a search's answer that comes after a check-in's, though
  // asked before it, knows nothing of the check-in. With again false, a
  // question the form asked last already is not asked again (a search box
  // left for a button says "change" after its typing said "input").
  function ask(form, part, target, submitter, done, again) {
    var data = new FormData(form);
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    var params = new URLSearchParams(data);
    params.set("part", part);
    if (again === false && questions.get(form) === params.toString()) {
      return Promise.resolve(true);
    }
    questions.set(form, params.toString());
    var n = (asked.get(target) || 0) + 1;
    asked.set(target, n);
    // Not form.action: a form's buttons may be named "action".
    var url = form.getAttribute("action");
    var init = { credentials: "same-origin" };
    if ((form.getAttribute("method") || "get").toLowerCase() === "post") {
      init.method = "POST";
      init.headers = { "Content-Type": "application/x-www-form-urlencoded" };
      init.body = params.toString();
    } else {
      url += "?" + params.toString();
    }
    return fetch(url, init).then(function (res) {
      return res.ok ? res.text() : null;
    }).then(function (html) {
      if (html === null) {
        return false;
      }
      if (asked.get(target) === n) {
        if (!swapParts(html)) {
          target.innerHTML = html;
        }
        if (done) {
          done();
        }
      }
      return true;
    });
  }

  // swapParts shows an answer made of parts the server marks data-live
  // (the score sheet's: its placings, each row's counted VP and the
  // refusals by their fields) in place of the parts with the same ids, and
  // marks invalid the fields the answer says are (data-live-invalid among
  // the data-live-fields it checked). It reports whether the answer was
  // made of such parts; any other answer is shown whole in the target.
  // Nothing is computed here: the counting and the rules are the server's.
  function swapParts(html) {
    if (!window.DOMParser) {
      return false;
    }
    var doc = new DOMParser().parseFromString(html, "text/html");
    var parts = doc.querySelectorAll("[data-live][id]");
    if (!parts.length) {
      return false;
    }
    parts.forEach(function (fresh) {
      var old = document.getElementById(fresh.id);
      if (old) {
        old.innerHTML = fresh.innerHTML;
      }
    });
    var marks = doc.querySelector("[data-live-fields]");
    if (marks) {
      var bad = (marks.getAttribute("data-live-invalid") || "").split(" ");
      marks.getAttribute("data-live-fields").split(" ").forEach(function (id) {
        var input = id && document.getElementById(id);
        if (!input) {
          return;
        }
        if (bad.indexOf(id) >= 0) {
          input.setAttribute("aria-invalid", "true");
        } else {
          input.removeAttribute("aria-invalid");
        }
      });
    }
    return true;
  }

  function changed(ev) {
    var form = ev.target.form;
    if (!form || !form.hasAttribute("data-live")) {
      return;
    }
    var target = document.getElementById(form.getAttribute("data-live"));
    if (!target) {
      return;
    }
    clearTimeout(timers.get(form));
    timers.set(form, setTimeout(function () {
      ask(form, form.getAttribute("data-live-part") || "preview", target, null, null, false).catch(function () {});
    }, 250));
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    var target = document.getElementById(form.getAttribute("data-live-submit") || "");
    if (ev.defaultPrevented || !target) {
      return;
    }
    ev.preventDefault();
    var search = document.getElementById("q");
    ask(form, "list", target, ev.submitter, function () {
      document.querySelectorAll("main [data-flash]").forEach(function (el) { el.remove(); });
      if (search) {
        search.focus();
        search.select();
      }
    }).then(function (shown) {
      // A refusal the part cannot show: the page answers it as without script.
      if (!shown) {
        form.submit();
      }
    }).catch(function () { form.submit(); });
  });
})();

// postParts posts data to form's action and puts each part of the answer
// marked data-live in place of the page's part with the same id (the
// element itself: its classes and attributes too). It resolves to whether
// it did: only the answer to the form's latest post is shown.
var postParts = (function () {
  var posted = new WeakMap();
  return function (form, data) {
    var n = (posted.get(form) || 0) + 1;
    posted.set(form, n);
    return fetch(form.getAttribute("action"), { method: "POST", body: data, credentials: "same-origin" })
      .then(function (res) { return res.text(); })
      .then(function (html) {
        if (posted.get(form) !== n) {
          return false; // a later answer is on its way
        }
        var doc = new DOMParser().parseFromString(html, "text/html");
        doc.querySelectorAll("[data-live][id]").forEach(function (fresh) {
          var old = document.getElementById(fresh.id);
          if (old) {
            old.replaceWith(document.importNode(fresh, true));
          }
        });
        return true;
      });
  };
})();

// A form shown again after a refusal puts the focus on its first field
// marked invalid (a fieldset: its first choice), not on the field the page
// focuses first, so the judge corrects it and sends again.
document.addEventListener("DOMContentLoaded", function () {
  var bad = document.querySelector('main [aria-invalid="true"]');
  if (!bad) {
    return;
  }
  if (bad.tagName === "FIELDSET") {
    bad = bad.querySelector("input, select, textarea") || bad;
  }
  bad.focus();
});
