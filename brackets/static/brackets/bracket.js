// Draw each advancer's path: from their row in one round's box to their row in the next
// round's box (rows carry data-player). Redrawn after every htmx swap and on resize.
(function () {
  function draw() {
    var root = document.getElementById("bracket");
    var svg = document.getElementById("bracket-svg");
    if (!root || !svg) { return; }
    var base = root.getBoundingClientRect();
    svg.setAttribute("width", root.scrollWidth);
    svg.setAttribute("height", root.scrollHeight);
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var cols = root.querySelectorAll(".bracket-col");
    for (var i = 0; i + 1 < cols.length; i++) {
      cols[i].querySelectorAll(".bb-row.adv, .bb-row.wild").forEach(function (row) {
        var target = cols[i + 1].querySelector('.bb-row[data-player="' + row.dataset.player + '"]');
        if (!target) { return; }
        var a = row.getBoundingClientRect(), b = target.getBoundingClientRect();
        var x1 = a.right - base.left + root.scrollLeft, y1 = a.top + a.height / 2 - base.top;
        var x2 = b.left - base.left + root.scrollLeft, y2 = b.top + b.height / 2 - base.top;
        var mid = (x1 + x2) / 2;
        var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
        path.setAttribute("d", "M" + x1 + "," + y1 + " C" + mid + "," + y1 + " " + mid + "," + y2 + " " + x2 + "," + y2);
        if (row.classList.contains("wild")) { path.setAttribute("class", "wild"); }
        svg.appendChild(path);
      });
    }
  }
  document.addEventListener("DOMContentLoaded", draw);
  document.body.addEventListener("htmx:afterSwap", draw);
  window.addEventListener("resize", draw);
})();
