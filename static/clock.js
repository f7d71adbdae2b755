// Counts clocks down between the server's readings: an element with
// data-countdown (seconds left, as the server computed them when it
// rendered the element) ticks while its data-state is "running", and
// shows data-time at zero; the closest data-warn element shows the last
// minute (warn) and the time up (up). The server stays the reference: a
// reload, or a part of the page swapped in (live:swapped), counts from its
// reading again, and a count reaching zero says so (clock:zero), for the
// page to ask the server what happens then.
//
// A page rendered once for everyone (the kiosk's) may be shown long after
// it was rendered: its counts carry their deadline too (data-deadline, in
// ms since 1970 by the server's clock), and once the server said what time
// it is (clock:sync, from each answer's X-Server-Time) they count down to
// it, whatever the device's own clock says. An element with data-since
// counts up from that moment instead (a turn past its limit), as +m:ss, in
// itself or in its element data-shown names.
"use strict";
(function () {
  let start = performance.now();
  // offset is the server's time less performance.now(), in ms, once known.
  let offset = null;
  document.addEventListener("live:swapped", function () {
    start = performance.now();
  });
  document.addEventListener("clock:sync", function (ev) {
    const now = Number(ev.detail);
    if (now > 0) {
      offset = now - performance.now();
      tick();
    }
  });
  function mmss(sec) {
    const m = Math.floor(sec / 60);
    const s = sec % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  // left is the seconds left of el's count: to its deadline by the
  // server's time once known, else from its reading less the time gone.
  function left(el, gone) {
    const deadline = el.getAttribute("data-deadline");
    if (deadline !== null && offset !== null) {
      return (Number(deadline) - (performance.now() + offset)) / 1000;
    }
    return Number(el.getAttribute("data-countdown")) - gone;
  }
  function tick() {
    const gone = (performance.now() - start) / 1000;
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      if (el.getAttribute("data-state") !== "running") {
        return;
      }
      const from = Number(el.getAttribute("data-countdown"));
      const sec = Math.max(0, Math.ceil(left(el, gone)));
      el.textContent = sec === 0 ? el.getAttribute("data-time") : mmss(sec);
      const box = el.closest("[data-warn]");
      if (box) {
        box.classList.toggle("warn", sec > 0 && sec <= 60);
        box.classList.toggle("up", sec === 0);
      }
      if (sec === 0 && from > 0 && !el.hasAttribute("data-zero")) {
        el.setAttribute("data-zero", "");
        document.dispatchEvent(new Event("clock:zero"));
      }
    });
    if (offset === null) {
      return;
    }
    document.querySelectorAll("[data-since]").forEach(function (el) {
      if (el.getAttribute("data-state") !== "running") {
        return;
      }
      const past = Math.max(0, Math.ceil((performance.now() + offset - Number(el.getAttribute("data-since"))) / 1000));
      const shown = (el.getAttribute("data-shown") && el.querySelector(el.getAttribute("data-shown"))) || el;
      shown.textContent = "+" + mmss(past);
    });
  }
  tick();
  setInterval(tick, 250);
})();
