// Round settings form: show a rule piece's parameters only while that piece is chosen.
// Without this script every parameter stays visible and the form still works.
(function () {
  "use strict";
  // A page may hold several settings forms (one per Number10 course), each with a prefix.
  function named(form, prefix, name) {
    return form.querySelector('select[name="' + (prefix ? prefix + "-" : "") + name + '"]');
  }
  function sync(form) {
    form.querySelectorAll(".bz-param").forEach(function (box) {
      var holder = box.closest("[data-prefix]");
      var select = named(form, holder ? holder.dataset.prefix : "", box.dataset.slot);
      box.hidden = !!select && select.value !== box.dataset.slug;
    });
    form.querySelectorAll('[data-section="written"]').forEach(function (written) {
      var format = named(form, written.dataset.prefix || "", "format");
      if (format) { written.hidden = format.value !== "written"; }
    });
  }
  document.querySelectorAll("form[data-round-settings]").forEach(function (form) {
    form.addEventListener("change", function () { sync(form); });
    sync(form);
  });
})();
