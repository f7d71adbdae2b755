// The turn page of a final table counts down between reads: each element
// with data-countdown (seconds; negative past the limit) and data-running
// ticks once a second, and the page is read again every 15 seconds, so a
// pass made on another device shows. The server's answer is the truth;
// this only keeps the numbers moving.
"use strict";
(function () {
  var started = Date.now();
  var els = document.querySelectorAll("[data-countdown][data-running]");
  function text(sec) {
    var s = Math.abs(sec);
    var m = Math.floor(s / 60);
    var r = s % 60;
    return (sec < 0 ? "+" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    var gone = Math.floor((Date.now() - started) / 1000);
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      var left = parseInt(el.getAttribute("data-countdown"), 10) - gone;
      el.textContent = text(left);
      el.classList.toggle("over", left < 0);
    }
  }
  if (els.length > 0) {
    setInterval(tick, 1000);
  }
  setTimeout(function () {
    // Not while the judge is typing the end time.
    if (!document.activeElement || document.activeElement.tagName !== "INPUT") {
      window.location.reload();
    }
  }, 15000);
})();
