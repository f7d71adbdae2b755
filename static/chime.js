// A chime for the room, switched on with the page's button (browsers play
// sound only after a click): three notes when the clock the server shows
// turns to time up, one when the clock's phase ends (its label changes).
// Both facts are the server's (the clock as kiosk.js swaps it in); this
// script only compares what it showed before with what it shows now.
"use strict";
(function () {
  const button = document.getElementById("chime");
  if (!button) {
    return;
  }
  let audio = null;
  let on = false;
  let last = null;

  function facts() {
    const clock = document.getElementById("clock");
    const label = document.getElementById("clock-label");
    const phase = document.getElementById("clock-phase");
    return {
      up: !!clock && clock.classList.contains("up"),
      label: label ? label.textContent.trim() : "",
      phase: phase && !phase.hidden ? phase.firstChild && phase.firstChild.textContent : "",
    };
  }

  // ring plays n notes of a soft bell.
  function ring(n) {
    if (!audio) {
      return;
    }
    const start = audio.currentTime + 0.05;
    for (let i = 0; i < n; i++) {
      const t = start + i * 0.6;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.setValueAtTime(i % 2 === 0 ? 880 : 660, t);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.5, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.55);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.6);
    }
    button.dataset.rang = String((Number(button.dataset.rang) || 0) + n);
  }

  button.addEventListener("click", function () {
    on = !on;
    if (on && !audio) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      audio = Ctx ? new Ctx() : null;
    }
    if (audio && on) {
      audio.resume();
      ring(1); // the judge hears that it works
    }
    button.setAttribute("aria-pressed", on ? "true" : "false");
  });

  document.addEventListener("live:swapped", function () {
    const now = facts();
    if (on && last) {
      if (now.up && !last.up) {
        ring(3);
      } else if (now.label !== last.label || now.phase !== last.phase) {
        ring(1);
      }
    }
    last = now;
  });
  last = facts();
})();
