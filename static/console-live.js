// Keeps every console page of a tournament live: the open judge calls in
// the navigation, and on the round page its live parts (the calls, the
// results waiting for confirmation, the players' reports and the tables
// with their results), rendered by the server as the page was and swapped
// in on each change the tournament's event feed tells of, as the kiosk
// does. It owns the page's one feed and passes each change on as a
// "console:change" event (console-clock.js follows the clock by it); after
// each swap it says "live:swapped", for chime.js to compare. It decides
// nothing: what shows is the server's.
"use strict";
(function () {
  const box = document.getElementById("console-live");
  if (!box || !window.fetch || !window.EventSource) {
    return;
  }
  const round = document.getElementById("round-live");
  const timers = {};

  // typing says the judge is typing in el (a resolution, a reason): that
  // part waits for them.
  function typing(el) {
    const a = document.activeElement;
    return !!el && !!a && el.contains(a) && (a.tagName === "INPUT" || a.tagName === "SELECT" || a.tagName === "TEXTAREA");
  }

  // swap puts the parts the server rendered in place of the page's with
  // the same ids, and reports whether a part had to wait.
  function swap(html) {
    const parts = new DOMParser().parseFromString(html, "text/html").body.querySelectorAll("[id]");
    let waited = false;
    Array.prototype.forEach.call(parts, function (part) {
      if (part.parentElement && part.parentElement.closest("[id]")) {
        return; // only the outermost parts
      }
      const old = document.getElementById(part.id);
      if (!old) {
        return;
      }
      if (typing(old)) {
        waited = true;
        return;
      }
      old.replaceWith(part);
    });
    document.dispatchEvent(new Event("live:swapped"));
    return waited;
  }

  function refresh(name, url) {
    delete timers[name];
    fetch(url, { cache: "no-store" })
      .then(function (res) {
        if (!res.ok) {
          throw new Error(name + ": " + res.status);
        }
        return res.text();
      })
      .then(function (html) {
        if (swap(html)) {
          schedule(name, url, 2000);
        }
      })
      .catch(function () {
        schedule(name, url, 3000);
      });
  }

  function schedule(name, url, delay) {
    if (timers[name]) {
      return;
    }
    timers[name] = setTimeout(function () {
      refresh(name, url);
    }, delay);
  }

  // follows says which parts a change of kind concerns: the clock's and
  // a recorded game's moves change neither.
  function changed(kind) {
    if (kind === "game" || kind === "clock") {
      return;
    }
    schedule("calls", box.getAttribute("data-live"), 150);
    if (round) {
      schedule("round", round.getAttribute("data-live"), 150);
    }
  }

  let source = null;
  function connect() {
    source = new EventSource(box.getAttribute("data-events"));
    source.addEventListener("change", function (ev) {
      let kind = "";
      try {
        kind = JSON.parse(ev.data).kind;
      } catch (err) {
        kind = "resync";
      }
      document.dispatchEvent(new CustomEvent("console:change", { detail: kind }));
      changed(kind);
    });
    // A (re)connection may have missed changes: everything again.
    source.addEventListener("open", function () {
      document.dispatchEvent(new CustomEvent("console:change", { detail: "resync" }));
      changed("resync");
    });
    source.addEventListener("reconnect", function () {
      source.close();
      connect();
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(connect, 3000);
      }
    });
  }
  connect();
})();
