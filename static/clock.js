// Counts clocks down between the server's readings: an element with
// data-countdown (seconds left, as the server computed them when it
// rendered the element) ticks while its data-state is "running", and
// shows data-time at zero; the closest data-warn element shows the last
// minute (warn) and the time up (up). The server stays the reference: a
// reload, or a part of the page swapped in (live:swapped), counts from its
// reading again, and a count reaching zero says so (clock:zero), for the
// page to ask the server what happens then.
"use strict";
(function () {
  let start = performance.now();
  document.addEventListener("live:swapped", function () {
    start = performance.now();
  });
  function mmss(sec) {
    const m = Math.floor(sec / 60);
    const s = sec % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function tick() {
    const gone = (performance.now() - start) / 1000;
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      if (el.getAttribute("data-state") !== "running") {
        return;
      }
      const from = Number(el.getAttribute("data-countdown"));
      const sec = Math.max(0, Math.ceil(from - gone));
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
  }
  tick();
  setInterval(tick, 250);
})();
