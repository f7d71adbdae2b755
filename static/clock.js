// Counts the round clock down on the judge's round page between reloads:
// elements with data-countdown (seconds left, as the server computed them
// when the page was rendered) tick while data-state is "running". The
// server's clock stays the reference; a reload re-syncs.
"use strict";
(function () {
  const start = performance.now();
  const clocks = Array.prototype.slice.call(document.querySelectorAll("[data-countdown]"));
  if (clocks.length === 0) {
    return;
  }
  function mmss(sec) {
    const m = Math.floor(sec / 60);
    const s = sec % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function tick() {
    const gone = (performance.now() - start) / 1000;
    clocks.forEach(function (el) {
      if (el.getAttribute("data-state") !== "running") {
        return;
      }
      const sec = Math.max(0, Math.ceil(Number(el.getAttribute("data-countdown")) - gone));
      el.textContent = sec === 0 ? el.getAttribute("data-time") : mmss(sec);
      if (el.classList.contains("clock-big")) {
        el.classList.toggle("warn", sec > 0 && sec <= 60);
        el.classList.toggle("up", sec === 0);
      }
    });
  }
  setInterval(tick, 250);
})();
