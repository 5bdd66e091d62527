// The projector's 惜敗率 table comes in screens that each fit 1080 px (the server cuts them);
// this shows one at a time and turns to the next every few seconds. The live poll swaps the
// whole table in when a result changes: the screen shown stays the same one.
(function () {
  "use strict";
  var current = 0;

  function screens() {
    return document.querySelectorAll(".proj-screen");
  }

  function show() {
    var all = screens();
    if (!all.length) {
      return;
    }
    current = current % all.length;
    all.forEach(function (screen, index) {
      screen.hidden = index !== current;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector(".proj-screen");
    var seconds = (box && Number(box.dataset.seconds)) || 10;
    show();
    window.setInterval(function () {
      current += 1;
      show();
    }, seconds * 1000);
  });
  document.addEventListener("htmx:afterSwap", show);
})();
