// Keeps the round page's clock panel as the server reads it: the panel is
// fetched again (data-live) when the tournament's event feed tells of a
// change (console-live.js passes each on as "console:change"), and when a
// countdown reaches zero (clock.js), then swapped in (live:swapped), for
// chime.js to compare. The time up and the end of a phase are the
// server's facts in the panel; this script decides nothing.
"use strict";
(function () {
  const box = document.getElementById("clock-live");
  if (!box) {
    return;
  }
  let pending = null;

  // A judge typing into the extension form keeps it: the swap waits.
  function typing() {
    const panel = document.getElementById("clock");
    const el = document.activeElement;
    return panel && el && panel.contains(el) && (el.tagName === "INPUT" || el.tagName === "SELECT");
  }

  function fetchPanel() {
    pending = null;
    if (typing()) {
      schedule(2000);
      return;
    }
    fetch(box.getAttribute("data-live"), { cache: "no-store" })
      .then(function (res) {
        if (!res.ok) {
          throw new Error("clock panel: " + res.status);
        }
        return res.text();
      })
      .then(function (html) {
        const part = new DOMParser().parseFromString(html, "text/html").getElementById("clock");
        const old = document.getElementById("clock");
        if (part && old) {
          old.replaceWith(part);
          document.dispatchEvent(new Event("live:swapped"));
        }
      })
      .catch(function () {
        schedule(3000);
      });
  }

  function schedule(delay) {
    if (pending !== null) {
      return;
    }
    pending = setTimeout(fetchPanel, delay);
  }

  document.addEventListener("console:change", function () {
    schedule(200);
  });
  // A countdown at zero: the server says what happens then (time up, the
  // next placement), a moment later.
  document.addEventListener("clock:zero", function () {
    schedule(700);
  });
})();
