// The players' kiosk, kept live. The page the server rendered is complete;
// this script adds the search as you type, the clock counting down, and the
// updates: it listens to the tournament's event feed (Server-Sent Events)
// and, on each change and on each (re)connection, fetches the live state
// and redraws the page from it. Names are data: they are only ever set with
// textContent, never parsed as HTML.
"use strict";
(function () {
  const body = document.body;
  const tid = body.getAttribute("data-tid");
  if (!tid) {
    return;
  }
  const text = JSON.parse(document.getElementById("kiosk-text").textContent);
  const projector = body.classList.contains("projector");
  const clockBox = document.getElementById("clock");
  const clockTime = document.getElementById("clock-time");
  const clockLabel = document.getElementById("clock-label");
  const clockPhase = document.getElementById("clock-phase");
  const lost = document.getElementById("live-lost");
  const search = document.getElementById("q");
  const count = document.getElementById("find-count");

  // The clock: the server's remaining time, counted down from the moment it
  // was read. The server stays the reference: each fetch re-syncs.
  let clock = {
    state: clockBox.getAttribute("data-state"),
    remaining: Number(clockBox.getAttribute("data-remaining")),
    // The placement under way, as the clock API gives it.
    placement: clockBox.hasAttribute("data-placement") ? {
      number: Number(clockBox.getAttribute("data-placement")),
      of: Number(clockBox.getAttribute("data-placements")),
      remaining_seconds: Number(clockBox.getAttribute("data-placement-left")),
    } : null,
    tables: [],
    at: performance.now(),
  };
  // What reached zero on this page and was fetched for: the round ("round")
  // and table numbers.
  let fetchedAtZero = {};

  function fill(template, values) {
    return template.replace(/\{(\w)\}/g, function (m, k) {
      return values[k] !== undefined ? String(values[k]) : m;
    });
  }

  function mmss(sec) {
    const m = Math.floor(sec / 60);
    const s = sec % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  // left is a remaining time (seconds, as read) counted down to now.
  function left(remaining) {
    if (clock.state !== "running") {
      return remaining;
    }
    const gone = (performance.now() - clock.at) / 1000;
    return Math.max(0, Math.ceil(remaining - gone));
  }

  function tick() {
    const sec = left(clock.remaining);
    const stopped = clock.state === "stopped";
    const up = !stopped && (clock.state === "over" || (clock.state !== "ready" && sec === 0));
    clockTime.textContent = stopped ? text.finished : up ? text.time : mmss(sec);
    clockLabel.textContent = text.state[up ? "over" : clock.state] || "";
    clockBox.className = "k-clock state-" + clock.state + (up ? " up" : "") +
      (!up && clock.state === "running" && sec <= 60 ? " warn" : "");
    // When the round's or a table's time runs out, or a placement's, the
    // page shows it at once, then fetches the server's word once.
    const due = [];
    if (up && clock.state === "running") {
      due.push("round");
    }
    const p = clock.placement;
    if (p) {
      const pl = left(p.remaining_seconds);
      clockPhase.textContent = fill(text.placement, { K: p.number, N: p.of, T: mmss(pl) });
      if (pl === 0 && clock.state === "running") {
        due.push("placement " + p.number);
      }
    }
    clockPhase.hidden = !p;
    clock.tables.forEach(function (t) {
      const card = document.querySelector('.k-card[data-table="' + t.number + '"]');
      const own = card && card.querySelector(".k-left");
      if (own) {
        own.textContent = mmss(left(t.remaining_seconds));
      }
      if (card && t.status === "playing" && left(t.remaining_seconds) === 0) {
        card.className = "k-card status-over";
        card.querySelector(".k-status").textContent = text.status.over;
        due.push(t.number);
      }
    });
    let fetchNow = false;
    due.forEach(function (k) {
      if (!fetchedAtZero[k]) {
        fetchedAtZero[k] = true;
        fetchNow = true;
      }
    });
    if (fetchNow) {
      schedule(500);
    }
  }

  // The search folds what is typed as the server folds names and readings:
  // NFKC, lower case, katakana as hiragana, no spaces.
  function fold(s) {
    let out = "";
    for (const ch of s.normalize("NFKC").toLowerCase()) {
      const c = ch.codePointAt(0);
      if (/\s/.test(ch)) {
        continue;
      }
      out += c >= 0x30a1 && c <= 0x30f6 ? String.fromCodePoint(c - 0x60) : ch;
    }
    return out;
  }

  function filter() {
    if (!search) {
      return;
    }
    const key = fold(search.value);
    let n = 0;
    document.querySelectorAll("#entries > tr").forEach(function (tr) {
      const show = key === "" || (tr.getAttribute("data-key") || "").indexOf(key) >= 0;
      tr.hidden = !show;
      if (show) {
        n++;
      }
    });
    count.textContent = key === "" ? "" : n > 0 ? fill(text.matches, { N: n }) : text.no_match;
  }

  function el(tag, cls, content) {
    const e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    if (content !== undefined) {
      e.textContent = content;
    }
    return e;
  }

  function chip(color) {
    const c = el("span", "chip " + color);
    c.setAttribute("aria-hidden", "true");
    return c;
  }

  function renderEntries(round) {
    const rows = [];
    if (round) {
      round.tables.forEach(function (t) {
        t.players.forEach(function (p) {
          rows.push({ name: p.name, kana: p.kana || "", table: t.number, seat: p.seat || 0, color: p.color || "" });
        });
      });
      round.byes.forEach(function (p) {
        rows.push({ name: p.name, kana: p.kana || "", table: 0, seat: 0, color: "" });
      });
    }
    rows.forEach(function (r) {
      r.sort = fold(r.kana || r.name);
    });
    rows.sort(function (a, b) {
      if (a.sort !== b.sort) {
        return a.sort < b.sort ? -1 : 1;
      }
      return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    });
    const tbody = document.getElementById("entries");
    const out = document.createDocumentFragment();
    rows.forEach(function (r) {
      const tr = el("tr");
      tr.setAttribute("data-key", fold(r.name + r.kana));
      const th = el("th");
      th.setAttribute("scope", "row");
      th.appendChild(el("span", "k-name", r.name));
      if (r.kana) {
        th.appendChild(document.createTextNode(" "));
        th.appendChild(el("span", "k-kana", r.kana));
      }
      tr.appendChild(th);
      if (r.table) {
        tr.appendChild(el("td", "k-table", fill(text.table, { N: r.table })));
        tr.appendChild(r.seat ? el("td", "", fill(text.seat, { N: r.seat })) : wrapMuted(text.no_seat));
        if (r.color) {
          const td = el("td");
          td.appendChild(chip(r.color));
          td.appendChild(document.createTextNode(text.colors[r.color] || r.color));
          tr.appendChild(td);
        } else {
          tr.appendChild(wrapMuted(text.no_seat));
        }
      } else {
        const td = el("td", "k-muted", text.bye);
        td.colSpan = 3;
        tr.appendChild(td);
      }
      out.appendChild(tr);
    });
    tbody.replaceChildren(out);
    filter();
  }

  function wrapMuted(s) {
    const td = el("td");
    td.appendChild(el("span", "k-muted", s));
    return td;
  }

  // vpSum shows a deduction as such, as the server does (web.vpSum):
  // "6 − 2 = 4", the cap "12 → 10", a game loss "6 → 0"; "" when the
  // sheet's VP stand.
  function vpSum(s) {
    const capped = s.vp + (s.deducted || 0);
    const lost = (s.penalties || []).some(function (l) {
      return l === "game_loss" || l === "disqualification";
    });
    let sum = String(s.reported_vp);
    if (capped !== s.reported_vp) {
      sum += " → " + capped;
    }
    if (lost) {
      if (capped !== 0) {
        sum += " → 0";
      }
    } else if (s.deducted > 0) {
      sum += " − " + s.deducted + " = " + s.vp;
    }
    return sum === String(s.vp) ? "" : sum;
  }

  function renderTables(round) {
    const box = document.getElementById("table-cards");
    const section = document.getElementById("tables");
    const out = document.createDocumentFragment();
    const byNumber = {};
    ((round && round.clock && round.clock.tables) || []).forEach(function (t) {
      byNumber[t.number] = t;
    });
    ((round && round.tables) || []).forEach(function (t) {
      const tc = byNumber[t.number] || { status: "ready", extension_seconds: 0 };
      const card = el("article", "k-card status-" + tc.status);
      card.setAttribute("data-table", t.number);
      const h = el("h3");
      h.appendChild(el("span", "", fill(text.table, { N: t.number })));
      h.appendChild(document.createTextNode(" "));
      h.appendChild(el("span", "k-status", text.status[tc.status] || tc.status));
      if (tc.extension_seconds > 0) {
        h.appendChild(document.createTextNode(" "));
        h.appendChild(el("span", "k-ext", fill(text.extended, { T: "+" + mmss(tc.extension_seconds) })));
        if (tc.status === "playing") {
          // An extended table's own time, counted down by tick.
          h.appendChild(document.createTextNode(" "));
          h.appendChild(el("span", "k-left", mmss(tc.remaining_seconds)));
        }
      }
      card.appendChild(h);
      const places = {};
      if (t.result) {
        t.result.scores.forEach(function (s) {
          places[s.player] = s;
        });
      }
      const players = t.players.slice();
      if (t.result) {
        players.sort(function (a, b) {
          return (places[a.id] ? places[a.id].place : 99) - (places[b.id] ? places[b.id].place : 99);
        });
      }
      const ol = el("ol");
      players.forEach(function (p) {
        const li = el("li");
        const pl = places[p.id];
        if (pl) {
          li.appendChild(el("span", "k-place", fill(text.place, { N: pl.place })));
        } else if (p.seat) {
          li.appendChild(el("span", "k-seatno", String(p.seat)));
        }
        if (p.color) {
          li.appendChild(chip(p.color));
        }
        li.appendChild(el("span", "k-name", p.name));
        if (p.color) {
          li.appendChild(document.createTextNode(" "));
          li.appendChild(el("span", "k-muted", text.colors[p.color] || p.color));
        }
        if (pl) {
          li.appendChild(document.createTextNode(" "));
          li.appendChild(el("span", "k-vp", fill(text.vp, { N: vpSum(pl) || pl.vp })));
          if (pl.penalties && pl.penalties.length > 0) {
            li.appendChild(document.createTextNode(" "));
            li.appendChild(el("span", "k-pen", pl.penalties.map(function (l) {
              return text.levels[l] || l;
            }).join(text.sep)));
          }
          if (t.result.declared === p.id) {
            li.appendChild(document.createTextNode(" "));
            li.appendChild(el("span", "k-tag", text.declared));
          }
        }
        ol.appendChild(li);
      });
      card.appendChild(ol);
      if (t.result) {
        card.appendChild(el("p", "k-ended", text.ended[t.result.ended_by] || ""));
      }
      out.appendChild(card);
    });
    box.replaceChildren(out);
    section.hidden = !round || round.tables.length === 0;
  }

  // The standings count the rounds complete unless the page asked for
  // every result so far (?standings=live); once the tournament is
  // finished they are final, with the winners above them.
  function renderStandings(live) {
    const standings = live.standings || [];
    const finished = live.tournament.state === "finished";
    document.getElementById("standings-label").textContent = finished ? text.final
      : live.standings_live ? fill(text.live, { N: live.standings_after + 1 })
        : fill(text.after, { N: live.standings_after });
    const sw = document.getElementById("standings-switch");
    if (sw) {
      sw.parentNode.hidden = finished;
    }
    document.getElementById("final").hidden = !finished;
    document.getElementById("find").hidden = finished;
    document.getElementById("players").hidden = finished;
    document.getElementById("winners").textContent = (live.winners || []).length === 0 ? ""
      : fill(text.winner, { W: live.winners.map(function (w) {
        return w.name;
      }).join(text.sep) });
    body.classList.toggle("finished", finished);
    const tbody = document.getElementById("standing-rows");
    const out = document.createDocumentFragment();
    let n = 0;
    standings.forEach(function (s) {
      if (s.played === 0) {
        return;
      }
      n++;
      const tr = el("tr");
      tr.appendChild(el("td", "num", String(s.rank)));
      const th = el("th", "", s.name);
      th.setAttribute("scope", "row");
      tr.appendChild(th);
      tr.appendChild(el("td", "num", String(s.firsts)));
      tr.appendChild(el("td", "num", String(s.vp)));
      tr.appendChild(el("td", "num", s.share.toFixed(3)));
      tr.appendChild(el("td", "num", String(s.played)));
      out.appendChild(tr);
    });
    tbody.replaceChildren(out);
    document.getElementById("standings").hidden = n === 0;
  }

  function render(live) {
    const round = live.round;
    document.getElementById("round-label").textContent = round ? fill(text.round, { N: round.number }) : text.not_paired;
    if (round && round.clock) {
      clock = {
        state: round.clock.state, remaining: round.clock.remaining_seconds, placement: round.clock.placement,
        tables: round.clock.tables, at: performance.now(),
      };
    } else {
      clock = { state: "ready", remaining: live.tournament.game_minutes * 60, placement: null, tables: [], at: performance.now() };
    }
    fetchedAtZero = { round: clock.state !== "ready" && clock.remaining === 0 };
    renderEntries(round);
    renderTables(round);
    renderStandings(live);
    tick();
    if (projector) {
      paginate();
    }
  }

  // Fetching: one request per change, a little spread out so that a room
  // full of phones does not ask in the same millisecond.
  let pending = null;
  function schedule(delay) {
    if (pending !== null) {
      return;
    }
    pending = setTimeout(fetchLive, delay === undefined ? Math.random() * 400 : delay);
  }

  function fetchLive() {
    const which = body.getAttribute("data-standings") === "live" ? "?standings=live" : "";
    fetch("/api/v1/tournaments/" + tid + "/live" + which, { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (res) {
        if (!res.ok) {
          throw new Error("live state: " + res.status);
        }
        return res.json();
      })
      .then(function (live) {
        pending = null;
        render(live);
      })
      .catch(function () {
        pending = null;
        setTimeout(function () {
          schedule(0);
        }, 3000);
      });
  }

  // The event feed. EventSource reconnects by itself after a network blip;
  // when the server refused the feed (restarting, busy) it gives up, so
  // connect again a little later.
  let source = null;
  function connect() {
    source = new EventSource("/api/v1/tournaments/" + tid + "/events");
    source.addEventListener("change", function () {
      schedule();
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

  // The projector pages through long lists: each list in turn, as many
  // rows as fit on the screen, a few seconds a page.
  const pageSeconds = 8;
  let steps = [];
  let step = 0;

  function paginate() {
    const current = steps[step];
    steps = [];
    ["players", "tables", "standings"].forEach(function (id) {
      const panel = document.getElementById(id);
      if (panel.hidden) {
        return;
      }
      const items = Array.prototype.slice.call(panel.querySelectorAll("tbody > tr, .k-card"));
      if (items.length === 0) {
        return;
      }
      document.querySelectorAll(".k-panel").forEach(function (p) {
        p.classList.toggle("k-off", p !== panel);
      });
      items.forEach(function (it) {
        it.classList.remove("k-off");
      });
      const bottom = window.innerHeight - 16;
      const pages = [];
      let page = [];
      let top = null;
      let limit = 0;
      items.forEach(function (it) {
        const r = it.getBoundingClientRect();
        if (top === null) {
          top = r.top;
          limit = bottom - r.top;
        }
        if (page.length > 0 && r.bottom - top > limit) {
          pages.push(page);
          page = [];
          top = r.top;
        }
        page.push(it);
      });
      pages.push(page);
      pages.forEach(function (p, i) {
        steps.push({ panel: panel, items: items, page: p, n: i + 1, m: pages.length });
      });
    });
    step = 0;
    if (current) {
      for (let i = 0; i < steps.length; i++) {
        if (steps[i].panel === current.panel && steps[i].n === current.n) {
          step = i;
        }
      }
    }
    show();
  }

  function show() {
    const s = steps[step];
    if (!s) {
      return;
    }
    document.querySelectorAll(".k-panel").forEach(function (p) {
      p.classList.toggle("k-off", p !== s.panel);
    });
    s.items.forEach(function (it) {
      it.classList.toggle("k-off", s.page.indexOf(it) < 0);
    });
    s.panel.querySelector(".k-pageno").textContent = s.m > 1 ? fill(text.page, { N: s.n, M: s.m }) : "";
  }

  if (search) {
    search.addEventListener("input", filter);
    search.form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      filter();
      search.blur();
    });
  }
  setInterval(tick, 250);
  tick();
  if (projector) {
    paginate();
    setInterval(function () {
      if (steps.length > 0) {
        step = (step + 1) % steps.length;
        show();
      }
    }, pageSeconds * 1000);
    window.addEventListener("resize", paginate);
  }
  connect();
  // Should the feed be blocked on the way (a proxy that buffers), the page
  // still catches up twice a minute.
  setInterval(function () {
    schedule();
  }, 30000);
})();
