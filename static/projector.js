// The kiosk on the shop's projector pages through long lists: each list in
// turn, as many rows as fit on the screen, a few seconds a page. It pages
// again when the screen changes size, and when kiosk.js swaps in the live
// parts (live:swapped), staying on the list it was showing.
"use strict";
(function () {
  const text = JSON.parse(document.getElementById("kiosk-text").textContent);
  const pageSeconds = 8;
  let steps = [];
  let step = 0;

  function fill(template, values) {
    return template.replace(/\{(\w)\}/g, function (m, k) {
      return values[k] !== undefined ? String(values[k]) : m;
    });
  }

  // pages splits one list's items into pages of the rows that fit below
  // the first one.
  function pages(items) {
    const bottom = window.innerHeight - 16;
    const out = [];
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
        out.push(page);
        page = [];
        top = r.top;
      }
      page.push(it);
    });
    out.push(page);
    return out;
  }

  function paginate() {
    const current = steps[step];
    steps = [];
    ["final-results", "players", "tables", "standings"].forEach(function (id) {
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
      const all = pages(items);
      all.forEach(function (p, i) {
        steps.push({ panel: panel, items: items, page: p, n: i + 1, m: all.length });
      });
    });
    step = 0;
    if (current) {
      for (let i = 0; i < steps.length; i++) {
        if (steps[i].panel.id === current.panel.id && steps[i].n === current.n) {
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

  paginate();
  setInterval(function () {
    if (steps.length > 0) {
      step = (step + 1) % steps.length;
      show();
    }
  }, pageSeconds * 1000);
  window.addEventListener("resize", paginate);
  document.addEventListener("live:swapped", paginate);
})();
