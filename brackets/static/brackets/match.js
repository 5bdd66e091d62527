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
  });
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
