// The kiosk's search, for a player on a phone: the server marks what the
// search found (class k-mine: the player's line, table and standings
// row); this script keeps the search in the page's address, so that the
// language switch and a reload keep it, and brings the player's table
// into view once the search has found them.
"use strict";
(function () {
  const search = document.getElementById("q");
  if (!search) {
    return;
  }
  let shown = "";

  // keep puts the search in the address and in the language links' way
  // back (?next=), without a new history entry per letter.
  function keep() {
    const url = new URL(location.href);
    const q = search.value.trim();
    if (q === "") {
      url.searchParams.delete("q");
    } else {
      url.searchParams.set("q", q);
    }
    history.replaceState(null, "", url);
    document.querySelectorAll(".k-lang a[href]").forEach(function (a) {
      const link = new URL(a.href, location.href);
      if (link.searchParams.has("next")) {
        link.searchParams.set("next", url.pathname + url.search + url.hash);
        a.href = link.pathname + link.search;
      }
    });
  }

  // reveal scrolls to the table of the player found, else to their
  // standings row, once per search.
  function reveal() {
    const q = search.value.trim();
    if (q === "" || q === shown) {
      return;
    }
    const mine = document.querySelector(".k-card.k-mine") || document.querySelector("#standing-rows .k-mine");
    if (mine) {
      shown = q;
      mine.scrollIntoView({ block: "center", behavior: "smooth" });
    }
  }

  search.addEventListener("input", keep);
  document.addEventListener("live:swapped", reveal);
  keep();
  reveal();
})();
