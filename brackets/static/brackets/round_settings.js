// Round settings form: show a rule piece's parameters only while that piece is chosen.
// Without this script every parameter stays visible and the form still works.
(function () {
  "use strict";
  function sync(form) {
    form.querySelectorAll(".bz-param").forEach(function (box) {
      var select = form.querySelector('select[name="' + box.dataset.slot + '"]');
      box.hidden = !!select && select.value !== box.dataset.slug;
    });
    var format = form.querySelector('select[name="format"]');
    var written = form.querySelector('[data-section="written"]');
    if (format && written) { written.hidden = format.value !== "written"; }
  }
  document.querySelectorAll("form[data-round-settings]").forEach(function (form) {
    form.addEventListener("change", function () { sync(form); });
    sync(form);
  });
})();
