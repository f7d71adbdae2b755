// The players' kiosk, kept live. The page the server rendered is complete;
// this script swaps in its live parts, rendered by the server as the page
// was (data-live), whenever they may have changed: on each change the
// tournament's event feed (Server-Sent Events) tells of, on each
// (re)connection, when a clock reaches zero (clock.js), and as a player
// types into the search, which the server answers with the players found.
"use strict";
(function () {
  const live = document.body.getAttribute("data-live");
  if (!live) {
    return;
  }
  const lost = document.getElementById("live-lost");
  const search = document.getElementById("q");
  let pending = null;
  let asking = null;

  // swap puts the parts the server rendered in place of the page's: each
  // replaces the element of its id; one with data-for only lends its
  // hidden attribute, and its class if it has one, to that element.
  function swap(html) {
    const parts = new DOMParser().parseFromString(html, "text/html").body.children;
    Array.prototype.slice.call(parts).forEach(function (part) {
      const old = document.getElementById(part.getAttribute("data-for") || part.id);
      if (!old) {
        return;
      }
      if (part.hasAttribute("data-for")) {
        old.hidden = part.hidden;
        if (part.hasAttribute("class")) {
          old.className = part.className;
        }
      } else {
        old.replaceWith(part);
      }
    });
    document.dispatchEvent(new Event("live:swapped"));
  }

  function fetchLive() {
    pending = null;
    if (asking) {
      asking.abort();
    }
    asking = new AbortController();
    const url = new URL(live, location.href);
    if (search && search.value.trim() !== "") {
      url.searchParams.set("q", search.value);
    }
    fetch(url, { cache: "no-store", signal: asking.signal })
      .then(function (res) {
        if (!res.ok) {
          throw new Error("live parts: " + res.status);
        }
        return res.text();
      })
      .then(swap)
      .catch(function (err) {
        if (err.name !== "AbortError") {
          setTimeout(function () {
            schedule(0);
          }, 3000);
        }
      });
  }

  // One request per change, a little spread out so that a room full of
  // phones does not ask in the same millisecond.
  function schedule(delay) {
    if (pending !== null) {
      return;
    }
    pending = setTimeout(fetchLive, delay === undefined ? Math.random() * 400 : delay);
  }

  function now() {
    clearTimeout(pending);
    pending = null;
    schedule(0);
  }

  // follows says whether a change concerns this page. A page that names
  // the kinds it follows (data-follow: a table's board follows its game)
  // asks again on those; the kiosk on every change but a recorded game's
  // moves, which change nothing it shows.
  const follow = (document.body.getAttribute("data-follow") || "").split(" ").filter(Boolean);
  function follows(ev) {
    let kind = "";
    try {
      kind = JSON.parse(ev.data).kind;
    } catch (err) {
      return true;
    }
    if (kind === "resync") {
      return true;
    }
    return follow.length > 0 ? follow.indexOf(kind) >= 0 : kind !== "game";
  }

  // The event feed. EventSource reconnects by itself after a network blip;
  // when the server refused the feed (restarting, busy) it gives up, so
  // connect again a little later.
  let source = null;
  function connect() {
    source = new EventSource(document.body.getAttribute("data-events"));
    source.addEventListener("change", function (ev) {
      if (follows(ev)) {
        schedule();
      }
    });
    source.addEventListener("open", function () {
      lost.hidden = true;
      schedule(0);
    });
    // The server ends each feed after a while: connect again at once,
    // without showing the feed as lost.
    source.addEventListener("reconnect", function () {
      source.close();
      connect();
    });
    source.addEventListener("error", function () {
      lost.hidden = false;
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(connect, 3000);
      }
    });
  }

  if (search) {
    search.addEventListener("input", now);
    search.form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      now();
      search.blur();
    });
  }
  document.addEventListener("clock:zero", function () {
    schedule(500);
  });
  connect();
  // Should the feed be blocked on the way (a proxy that buffers), the page
  // still catches up twice a minute.
  setInterval(schedule, 30000);
})();
