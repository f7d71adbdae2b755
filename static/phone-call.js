// Keeps a table's judge call current on its players' phones: the part the
// server rendered (#call, with who is on the way) is fetched again when
// the tournament's event feed tells of a call, and swapped in. Nothing is
// decided here; without this script the page says the same on a reload.
"use strict";
(function () {
  const part = document.getElementById("call");
  if (!part || !window.fetch || !window.EventSource) {
    return;
  }
  let pending = null;

  function typing() {
    const now = document.getElementById("call");
    const a = document.activeElement;
    return now && a && now.contains(a) && (a.tagName === "INPUT" || a.tagName === "SELECT");
  }

  function refresh() {
    pending = null;
    if (typing()) {
      schedule(2000);
      return;
    }
    const url = new URL(part.getAttribute("data-call-live"), location.href);
    url.searchParams.set("part", "call");
    fetch(url, { cache: "no-store" })
      .then(function (res) {
        if (!res.ok) {
          throw new Error("call: " + res.status);
        }
        return res.text();
      })
      .then(function (html) {
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("call");
        const old = document.getElementById("call");
        if (fresh && old) {
          old.replaceWith(fresh);
        }
      })
      .catch(function () {
        schedule(3000);
      });
  }

  function schedule(delay) {
    if (pending === null) {
      pending = setTimeout(refresh, delay);
    }
  }

  let source = null;
  function connect() {
    source = new EventSource(part.getAttribute("data-events"));
    source.addEventListener("change", function (ev) {
      let kind = "resync";
      try {
        kind = JSON.parse(ev.data).kind;
      } catch (err) {
        // anything may have changed
      }
      if (kind === "call" || kind === "report" || kind === "resync") {
        schedule(Math.random() * 400);
      }
    });
    source.addEventListener("reconnect", function () {
      source.close();
      connect();
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(connect, 3000);
      }
    });
  }
  connect();
})();
