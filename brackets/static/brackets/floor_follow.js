// A set's tablet follows its calls: the waiting screen opens the match page of the group
// called to the set, and that match page goes back to the set's screen (which opens the
// next call) once its group is no longer the one called there. A page with typed but
// unsaved input is never left by itself: it shows a banner instead.
(function () {
  "use strict";
  var wait = document.querySelector(".tablet-wait");
  var params = new URLSearchParams(location.search);
  var current = null;
  var base = location.pathname.match(/^(.*\/t\/[^/]+\/)(?:match\/(\d+)\/|floor\/sets\/(\d+)\/tablet\/)$/);
  if (!base) return;
  var setId;
  if (wait) {
    setId = base[3];
  } else {
    current = Number(base[2]);
    var fromUrl = params.get("set");
    if (fromUrl && /^\d+$/.test(fromUrl)) {
      sessionStorage.setItem("floorSet", fromUrl);
      sessionStorage.setItem("floorGroup", String(current));
    }
    // Only the group this tablet was sent to is followed, not a page opened by hand.
    if (sessionStorage.getItem("floorGroup") !== String(current)) return;
    setId = sessionStorage.getItem("floorSet");
  }
  if (!setId) return;
  var stateUrl = base[1] + "floor/sets/" + setId + "/state.json";
  var tabletUrl = base[1] + "floor/sets/" + setId + "/tablet/";
  var dirty = false;
  document.addEventListener("input", function () { dirty = true; });
  document.addEventListener("submit", function () { dirty = false; });

  function banner(state) {
    if (document.getElementById("floor-follow-banner")) return;
    var box = document.createElement("div");
    box.id = "floor-follow-banner";
    box.className = "alert alert-warning d-flex align-items-center gap-2";
    var text = document.createElement("span");
    text.textContent = (state.label ? state.set + ": " + state.label : state.set) +
      (document.documentElement.lang === "en" ? " is now called here." : " が呼ばれました。");
    var link = document.createElement("a");
    link.href = state.url || tabletUrl;
    link.className = "btn btn-sm btn-warning";
    link.textContent = document.documentElement.lang === "en" ? "Open" : "開く";
    box.append(text, link);
    var main = document.querySelector("main");
    main.insertBefore(box, main.firstChild);
  }

  function markFollowing(state) {
    if (wait || document.getElementById("floor-follow-note")) return;
    var note = document.createElement("p");
    note.id = "floor-follow-note";
    note.className = "small text-muted mb-1";
    note.textContent = document.documentElement.lang === "en"
      ? state.set + " tablet: follows the calls to this set."
      : state.set + "のタブレット：呼び出しに合わせて次の組に切り替わります。";
    var main = document.querySelector("main");
    main.insertBefore(note, main.firstChild);
  }

  function poll() {
    fetch(stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (state) markFollowing(state);
        if (state && state.group !== current) {
          if (wait || !dirty) {
            if (state.group) sessionStorage.setItem("floorGroup", String(state.group));
            location.href = state.url || tabletUrl;
            return;
          }
          banner(state);
        }
        setTimeout(poll, 3000);
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, wait ? 1500 : 3000);
})();
