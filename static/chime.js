// A chime for the judges, switched on with the navigation's button
// (browsers play sound only after a click; the choice is remembered on
// this browser, and the sound wakes at the next click or key): three notes
// when the clock the server shows turns to time up, one when the clock's
// phase ends (its label changes), two when a judge call or a disputed
// report appears (the calls in the navigation, the round page's calls and
// reports). Every fact is the server's, as console-live.js and
// console-clock.js swap it in; this script only compares what it showed
// before with what it shows now.
"use strict";
(function () {
  const button = document.getElementById("chime");
  if (!button) {
    return;
  }
  const key = "catanjudge.chime";
  let audio = null;
  let on = false;
  let last = null;

  function facts() {
    const clock = document.getElementById("clock");
    const label = document.getElementById("clock-label");
    const phase = document.getElementById("clock-phase");
    const badge = document.getElementById("calls-badge");
    const rings = [];
    document.querySelectorAll("[data-ring]").forEach(function (el) {
      if (el.getAttribute("data-ring")) {
        rings.push(el.getAttribute("data-ring"));
      }
    });
    return {
      up: !!clock && clock.classList.contains("up"),
      label: label ? label.textContent.trim() : "",
      phase: phase && !phase.hidden ? phase.firstChild && phase.firstChild.textContent : "",
      calls: badge ? Number(badge.getAttribute("data-open")) || 0 : 0,
      rings: rings,
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

  function wake() {
    if (!audio) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      audio = Ctx ? new Ctx() : null;
    }
    if (audio) {
      audio.resume();
    }
  }

  function set(value) {
    on = value;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    try {
      window.localStorage.setItem(key, on ? "on" : "off");
    } catch (err) {
      // A browser that keeps nothing asks again on each page.
    }
  }

  button.addEventListener("click", function () {
    set(!on);
    if (on) {
      wake();
      ring(1); // the judge hears that it works
    }
  });
  try {
    if (window.localStorage.getItem(key) === "on") {
      set(true);
      // Sound may start only after the judge touches the page.
      ["pointerdown", "keydown"].forEach(function (ev) {
        document.addEventListener(ev, wake, { once: true });
      });
    }
  } catch (err) {
    // No storage: off until clicked.
  }

  document.addEventListener("live:swapped", function () {
    const now = facts();
    if (on && last) {
      const fresh = now.calls > last.calls || now.rings.some(function (r) {
        return last.rings.indexOf(r) < 0;
      });
      if (now.up && !last.up) {
        ring(3);
      } else if (fresh) {
        ring(2);
      } else if (now.label !== last.label || now.phase !== last.phase) {
        ring(1);
      }
    }
    last = now;
  });
  last = facts();
})();
