// Tablet match page: show the engine's reason for an illegal set as soon as it is picked,
// reveal the explicit confirmation, and block a second tap on a form being submitted
// (the server's idempotency key makes a double submit record once anyway).
(function () {
  // A refused save is shown at the POST endpoint's URL; swap in the match page's own URL
  // (no navigation, the typed values stay) so a reload is a GET, never a re-post.
  var refused = document.getElementById("match-error");
  if (refused && refused.dataset.pageUrl && window.history.replaceState) {
    window.history.replaceState(null, "", refused.dataset.pageUrl);
  }
  document.querySelectorAll(".selection-form").forEach(function (form) {
    var select = form.querySelector(".set-select");
    var reason = form.querySelector(".illegal-reason");
    var confirmBox = form.querySelector(".confirm-illegal");
    function showReason() {
      var opt = select.options[select.selectedIndex];
      var why = opt ? opt.getAttribute("data-reason") : null;
      reason.textContent = why || "";
      confirmBox.classList.toggle("d-none", !why);
      var box = confirmBox.querySelector("input");
      if (!why && box) { box.checked = false; }
    }
    select.addEventListener("change", showReason);
    // A seat's saved set comes preselected: if it was saved as a violation, say so now.
    if (select.selectedIndex > 0 && !reason.textContent) { showReason(); }
    var grid = form.querySelector(".set-grid");
    if (grid) { twoTaps(form, grid, select); }
  });

  // The two-tap picker over the list: a genre, then a format of it. A tap only sets the
  // list's value (the form posts the list, as without JavaScript); greyed cells and their
  // reasons come from the server, so nothing here decides what is legal.
  function twoTaps(form, grid, select) {
    var genres = grid.querySelector(".set-genres");
    var chosen = grid.querySelector(".set-chosen");
    var panels = grid.querySelectorAll(".set-formats");
    var listLabel = form.querySelector(".set-list-label");
    function show(step, genre) {
      genres.hidden = step !== "genres";
      chosen.hidden = step !== "chosen";
      panels.forEach(function (p) { p.hidden = step !== "formats" || p.dataset.genre !== genre; });
    }
    function mark() {
      var value = select.value;
      var genre = value.split("|")[0];
      grid.querySelectorAll(".set-format").forEach(function (c) {
        c.setAttribute("aria-pressed", c.dataset.value === value ? "true" : "false");
      });
      grid.querySelectorAll(".set-genre").forEach(function (c) {
        c.setAttribute("aria-pressed", value && c.dataset.genre === genre ? "true" : "false");
      });
      var cell = value ? grid.querySelector('.set-format[aria-pressed="true"]') : null;
      chosen.querySelector(".set-chosen-text").textContent = value.replace("|", " / ");
      chosen.classList.toggle("is-illegal", !!(cell && cell.classList.contains("is-illegal")));
      show(value ? "chosen" : "genres");
    }
    grid.addEventListener("click", function (event) {
      var cell = event.target.closest("button");
      if (!cell) { return; }
      if (cell.classList.contains("set-genre")) {
        show("formats", cell.dataset.genre);
      } else if (cell.classList.contains("set-format")) {
        select.value = cell.dataset.value;
        select.dispatchEvent(new Event("change"));
      } else if (cell.classList.contains("set-back") || cell.classList.contains("set-change")) {
        show("genres");
      }
    });
    select.addEventListener("change", mark);
    grid.hidden = false;
    if (listLabel) { listLabel.hidden = false; }
    mark();
  }
  document.querySelectorAll("form[data-once]").forEach(function (form) {
    form.addEventListener("submit", function () {
      if (form.dataset.sent) { return false; }
      form.dataset.sent = "1";
      setTimeout(function () {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      }, 0);
      return true;
    });
  });
})();
