// The players' kiosk, kept live. The page the server rendered is complete;
// this script swaps in its live parts, rendered by the server as the page
// was (data-live), whenever they may have changed: on each change the
// tournament's event feed (Server-Sent Events) tells of, on each
// (re)connection, when a clock reaches zero (clock.js), and as a player
// types into the search, which the server answers with the players found.
//
// The server renders the parts once per change for every screen of the
// same view, and the kiosk's feed carries them in each change's event
// ("parts"): the page swaps them in as they come, asking nothing, and
// fetches them only when an event comes without them (a page that is not
// the kiosk's, parts too large to push, a change the server could not
// render) and on each (re)connection, when it may have missed changes.
// Fetched, they come with an ETag: the browser keeps them and
// sends it back (If-None-Match), and gets 304, with nothing sent, when
// nothing changed. A search is rendered for the one player who typed it; after a
// change the page fetches the parts everyone shares and marks on them
// what the server found for that search, with the search's key as the
// server folded it (data-key). Each answer says the server's time
// (X-Server-Time), which the clocks count from (clock:sync).
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
  // shown counts the parts pushed: a fetch begun before the last of them
  // answers older parts, which are not put in place (its time still is).
  let shown = 0;
  // searched is the search the server last answered: its words and its
  // key (null when the page shows no search the server answered).
  let searched = null;
  const text = (function () {
    const data = document.getElementById("kiosk-text");
    try {
      return data ? JSON.parse(data.textContent) : {};
    } catch (err) {
      return {};
    }
  })();

  function typed() {
    return search ? search.value.trim() : "";
  }

  // answered reads the search the page shows as the server answered it.
  function answered(q) {
    const count = document.getElementById("find-count");
    searched = count && count.hasAttribute("data-key") ? { q: q, key: count.getAttribute("data-key") } : null;
  }

  // mark shows on the shared parts what the server showed for the search
  // whose key is key: the players it found (the others hidden), their
  // tables and standings rows highlighted, and how many.
  function mark(key) {
    let found = 0;
    const tables = {};
    document.querySelectorAll("#entries tr[data-key]").forEach(function (tr) {
      const mine = key === "" || tr.getAttribute("data-key").indexOf(key) >= 0;
      tr.hidden = !mine;
      tr.classList.toggle("k-mine", key !== "" && mine);
      if (mine) {
        found++;
        const table = tr.querySelector("[data-table]");
        if (key !== "" && table) {
          tables[table.getAttribute("data-table")] = true;
        }
      }
    });
    document.querySelectorAll("#table-cards .k-card[data-table]").forEach(function (card) {
      card.classList.toggle("k-mine", tables[card.getAttribute("data-table")] === true);
    });
    document.querySelectorAll("#standing-rows tr[data-find]").forEach(function (tr) {
      tr.classList.toggle("k-mine", key !== "" && tr.getAttribute("data-find").indexOf(key) >= 0);
    });
    const count = document.getElementById("find-count");
    if (count) {
      count.textContent = found > 0 ? String(text.matches || "").replace("{N}", found) : text.no_match || "";
      count.setAttribute("data-key", key);
    }
  }

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
  }

  // show puts in place the parts html, rendered for the search q, or the
  // parts everyone shares (shared), on which it marks the search the
  // server last answered.
  function show(html, shared, q) {
    swap(html);
    if (!shared) {
      answered(q);
    } else if (q !== "") {
      mark(searched.key);
    } else {
      searched = null;
    }
    document.dispatchEvent(new Event("live:swapped"));
  }

  // pushed puts in place the parts a change's event carried, the ones
  // everyone shares, unless the page shows a search the server has not
  // answered yet: then it asks for that. A fetch due is no longer needed,
  // and one under way answers older parts (shown).
  function pushed(html) {
    const q = typed();
    if (q !== "" && (searched === null || searched.q !== q)) {
      now();
      return;
    }
    clearTimeout(pending);
    pending = null;
    shown++;
    show(html, true, q);
  }

  function fetchLive() {
    pending = null;
    if (asking) {
      asking.abort();
    }
    asking = new AbortController();
    const url = new URL(live, location.href);
    const q = typed();
    // The shared parts, unless the search is one the server has not
    // answered yet.
    const shared = q === "" || (searched !== null && searched.q === q);
    const before = shown;
    // The shared parts are kept by the browser and asked for again with
    // their ETag (no-cache): when nothing changed the server answers 304,
    // sending nothing, and the browser hands back the parts it kept.
    if (!shared) {
      url.searchParams.set("q", q);
    }
    fetch(url, { cache: shared ? "no-cache" : "no-store", signal: asking.signal })
      .then(function (res) {
        const now = res.headers.get("X-Server-Time");
        if (now) {
          document.dispatchEvent(new CustomEvent("clock:sync", { detail: Number(now) }));
        }
        if (!res.ok) {
          throw new Error("live parts: " + res.status);
        }
        return res.text();
      })
      .then(function (html) {
        if (shown === before) {
          show(html, shared, q);
        }
      })
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

  // now asks at once (or after delay ms): the search changed, or a clock
  // reached zero.
  function now(delay) {
    clearTimeout(pending);
    pending = null;
    schedule(delay === undefined ? 0 : delay);
  }

  // change reads a change's event: null when it does not concern this
  // page. A page that names the kinds it follows (data-follow: a table's
  // board follows its game) asks again on those; the kiosk on every change
  // but a recorded game's moves, which change nothing it shows.
  const follow = (document.body.getAttribute("data-follow") || "").split(" ").filter(Boolean);
  function change(ev) {
    let data = null;
    try {
      data = JSON.parse(ev.data);
    } catch (err) {
      return {};
    }
    const kind = data && data.kind;
    if (kind === "resync") {
      return data;
    }
    return (follow.length > 0 ? follow.indexOf(kind) >= 0 : kind !== "game") ? data || {} : null;
  }

  // The event feed. EventSource reconnects by itself after a network blip;
  // when the server refused the feed (restarting, busy) it gives up, so
  // connect again a little later.
  let source = null;
  function connect() {
    source = new EventSource(document.body.getAttribute("data-events"));
    source.addEventListener("change", function (ev) {
      const data = change(ev);
      if (data === null) {
        return;
      }
      if (typeof data.parts === "string") {
        pushed(data.parts);
      } else {
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
    answered(typed());
    search.addEventListener("input", function () {
      now();
    });
    search.form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      now();
      search.blur();
    });
  }
  // At zero the server's page changes (the time is up, the next placement):
  // ask for it whole.
  document.addEventListener("clock:zero", function () {
    now(500);
  });
  connect();
  // Should the feed be blocked on the way (a proxy that buffers), the page
  // still catches up twice a minute.
  setInterval(schedule, 30000);
})();
