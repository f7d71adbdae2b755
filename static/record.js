// The record page (templates/pages/record.html) works without this file:
// every button posts the form, and the server answers with the page. This
// file makes entering a game quick at the table: a tap on the board fills
// in the corner, edge or hex the chosen tap is for, and enters the move
// when the tap completes it (a settlement, a city, a road, a placement's
// road after its settlement); the white and blue dice roll once both are
// picked; keys choose what a tap fills in and enter the frequent moves
// (an undo stays a button: a stray key must not take a move away).
// Every answer swaps in the part the server marks data-live. No rule is
// computed here: whether a move stands is the server's to say.
"use strict";
(function () {
  var form = document.getElementById("record-form");
  if (!form || !window.fetch || !window.DOMParser || typeof postParts !== "function") {
    return;
  }
  // enterIn is the field Enter was just pressed in: the form's implicit
  // submission that follows is that field's move, already sent.
  var enterIn = null;

  function field(name) {
    return form.elements[name];
  }

  // send posts the form as the button named name with value would, and
  // swaps in the answer.
  function send(name, value) {
    var data = new URLSearchParams(new FormData(form));
    data.delete("do");
    data.delete("action");
    data.set(name, value);
    data.set("live", "1");
    var focused = document.activeElement && document.activeElement.id;
    form.classList.add("busy");
    postParts(form, data).then(function (latest) {
      if (!latest) {
        return;
      }
      form.classList.remove("busy");
      // After a refusal the judge corrects what was typed; after a move
      // the keys are free for the next one.
      var refused = document.querySelector("#record-error, #record-stale, #record-live .field-error");
      if (refused && focused && document.getElementById(focused)) {
        document.getElementById(focused).focus();
      } else if (document.activeElement && form.contains(document.activeElement)) {
        document.activeElement.blur();
      }
      document.dispatchEvent(new Event("record:swapped"));
    }).catch(function () {
      form.classList.remove("busy");
    });
  }

  // markCorner shows the corner the form names, waiting for its road.
  function markCorner() {
    form.querySelectorAll(".hit.corner.pending").forEach(function (c) {
      c.classList.remove("pending");
    });
    var name = field("corner") && field("corner").value.trim();
    var c = name && form.querySelector('[data-at="' + name + '"]');
    if (c) {
      c.classList.add("pending");
    }
  }
  document.addEventListener("record:swapped", markCorner);
  form.addEventListener("input", markCorner);

  // locked says the record takes no move (the table has a result): the
  // page then has no entry to fill.
  function locked() {
    return !field("corner");
  }

  function tap() {
    var t = form.querySelector('input[name="tap"]:checked');
    return t ? t.value : "";
  }

  // A tap on a corner, an edge or a hex of the board.
  form.addEventListener("click", function (ev) {
    var target = ev.target.closest && ev.target.closest("[data-at],[data-edge],[data-hex]");
    if (!target || locked()) {
      return;
    }
    var mode = tap();
    var at = target.getAttribute("data-at");
    var edge = target.getAttribute("data-edge");
    var hex = target.getAttribute("data-hex");
    if (at) {
      field("corner").value = at;
      markCorner();
      if (mode === "settlement" || mode === "city") {
        send("do", mode);
      }
    } else if (edge) {
      if (mode === "roads") {
        var roads = field("roads");
        roads.value = roads.value.trim() ? roads.value.trim() + ", " + edge : edge;
        return;
      }
      field("edge").value = edge;
      if (mode === "road") {
        send("do", "road");
      } else if (mode === "place" && field("corner").value.trim()) {
        send("do", "place");
      }
    } else if (hex) {
      field("hex").value = hex;
      field("rob").focus();
    }
  });

  // The dice roll once both are picked.
  form.addEventListener("change", function (ev) {
    var t = ev.target;
    if ((t.name === "white" || t.name === "blue") &&
        form.querySelector('input[name="white"]:checked') && form.querySelector('input[name="blue"]:checked')) {
      send("do", "roll");
    }
  });

  form.addEventListener("submit", function (ev) {
    var button = ev.submitter;
    if (enterIn) {
      ev.preventDefault(); // Enter in a field: its own move was sent
      return;
    }
    if (button && button.name === "action" && button.value === "result") {
      return; // saving the result posts the form, and the score sheet follows
    }
    ev.preventDefault();
    if (button && button.name) {
      send(button.name, button.value);
    }
  });

  // typedMove is the move Enter in field t enters: the one the field is
  // for (the dice roll), or, in the corner and edge fields, the one the
  // chosen tap is for.
  function typedMove(t) {
    var mode = tap();
    switch (t.id) {
      case "corner":
        return mode === "city" || mode === "place" ? mode : "settlement";
      case "edge":
        return mode === "place" ? "place" : "road";
      case "roads":
        return "road_building";
    }
    return t.getAttribute("data-do");
  }

  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (ev.key === "Enter" && t && t.tagName === "INPUT" && form.contains(t) && t.type !== "radio" && t.type !== "checkbox") {
      // Enter in a field would submit the form's first button: enter the
      // field's own move instead.
      var move = typedMove(t);
      if (move) {
        ev.preventDefault();
        enterIn = t;
        setTimeout(function () { enterIn = null; }, 0);
        send("do", move);
      }
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey || (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) && t.type !== "radio" && t.type !== "checkbox")) {
      return;
    }
    if (locked()) {
      return;
    }
    var key = ev.key.toLowerCase();
    var pick = form.querySelector('input[name="tap"][data-key="' + key + '"]');
    if (pick) {
      pick.checked = true;
      ev.preventDefault();
      return;
    }
    if (key === "d") {
      field("dice").focus();
      ev.preventDefault();
    } else if (key === "e") {
      send("do", "end_turn");
      ev.preventDefault();
    }
  });
})();
