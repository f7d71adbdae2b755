// A chime for the judges, switched on with the navigation's button
// (browsers play sound only after a click; the choice is remembered on
// this browser, and the sound wakes at the next click or key): three notes
// when the clock the server shows turns to time up, one when the clock's
// phase ends (its label changes), two when a judge call or a disputed
// report appears (the calls in the navigation, the round page's calls and
// reports). Every fact is the server's, as console-live.js and
// console-clock.js swap it in; this script only compares what it showed
// before with what it shows now. The bell is made here (Web Audio), no
// sound file. A browser that keeps sound off until the page is touched
// (a chime switched on earlier, a page loaded since) shows #chime-blocked
// with a button that lets the sound out; the button counts the notes rung
// in data-rang and those the browser held back in data-missed.
"use strict";
(function () {
  const button = document.getElementById("chime");
  if (!button) {
    return;
  }
  const blocked = document.getElementById("chime-blocked");
  const enable = document.getElementById("chime-enable");
  const key = "catanjudge.chime";
  let audio = null;
  let on = false;
  let touched = false;
  let last = null;

  function facts() {
    const clock = document.getElementById("clock");
    const label = document.getElementById("clock-label");
    const phase = document.getElementById("clock-phase");
    const rings = [];
    document.querySelectorAll("[data-ring]").forEach(function (el) {
      el.getAttribute("data-ring").split(/\s+/).forEach(function (r) {
        if (r) {
          rings.push(r);
        }
      });
    });
    return {
      up: !!clock && clock.classList.contains("up"),
      label: label ? label.textContent.trim() : "",
      phase: phase && !phase.hidden ? phase.firstChild && phase.firstChild.textContent : "",
      rings: rings,
    };
  }

  function count(name, n) {
    button.dataset[name] = String((Number(button.dataset[name]) || 0) + n);
  }

  // held says whether the browser keeps the chime's sound back, and shows
  // so while the chime is on: the sound runs, or the judge has touched the
  // page since it was made (the browser lets it out then, a moment later).
  function held() {
    const h = on && (!audio || (!touched && audio.state !== "running"));
    if (blocked) {
      blocked.hidden = !h;
    }
    return h;
  }

  // ring plays n notes of a soft bell.
  function ring(n) {
    if (held()) {
      count("missed", n);
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
    count("rang", n);
  }

  // wake makes the sound ready; after a click or a key (byJudge) it plays.
  function wake(byJudge) {
    touched = touched || byJudge === true;
    if (!audio) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      audio = Ctx ? new Ctx() : null;
      if (audio) {
        audio.addEventListener("statechange", held);
      }
    }
    if (audio && audio.state !== "running") {
      audio.resume().then(held, function () {
        touched = false;
        held();
      });
    }
    held();
  }

  function set(value) {
    on = value;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    held();
    try {
      window.localStorage.setItem(key, on ? "on" : "off");
    } catch (err) {
      // A browser that keeps nothing asks again on each page.
    }
  }

  button.addEventListener("click", function () {
    set(!on);
    if (on) {
      wake(true);
      ring(1); // the judge hears that it works
    }
  });
  if (enable) {
    enable.addEventListener("click", function () {
      wake(true);
      ring(1);
    });
  }
  try {
    if (window.localStorage.getItem(key) === "on") {
      set(true);
      // The browser may let the sound out at once; if not, at the judge's
      // first touch of the page.
      wake(false);
      // pointerup, not pointerdown: the notice may hide at the touch, and
      // its own button must still get the click.
      ["pointerup", "keydown"].forEach(function (ev) {
        document.addEventListener(ev, function () {
          wake(true);
        }, { once: true });
      });
    }
  } catch (err) {
    // No storage: off until clicked.
  }

  // Each call rings once, whichever part shows it first (the navigation's
  // count, the round page's list).
  const heard = {};
  function fresh(rings) {
    let any = false;
    rings.forEach(function (r) {
      any = any || !heard[r];
      heard[r] = true;
    });
    return any;
  }

  document.addEventListener("live:swapped", function () {
    const now = facts();
    const rung = fresh(now.rings);
    if (on && last) {
      if (now.up && !last.up) {
        ring(3);
      } else if (rung) {
        ring(2);
      } else if (now.label !== last.label || now.phase !== last.phase) {
        ring(1);
      }
    }
    last = now;
  });
  last = facts();
  fresh(last.rings);
})();
