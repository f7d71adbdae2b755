// The printables work without this file; it only makes the print button print.
"use strict";
document.addEventListener("click", function (ev) {
  if (ev.target.closest && ev.target.closest("[data-print]")) {
    window.print();
  }
});
