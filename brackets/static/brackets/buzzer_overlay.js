/* Stream overlays of a buzzer round (OBS browser source, 1920×1080, transparent).
 *
 * Draws the stage scoreboard's payload with buzzer.js's own helpers (window.BuzzerKit) and
 * the same feed (server-sent events, JSON poll while the stream is down). It decides no
 * rule: the big number is each row's "main", its unit the payload's display hint, the
 * status text the server's label.
 */
(function () {
  "use strict";
  var K = window.BuzzerKit;
  var el = K.el, T = K.T;

  function BuzzerOverlay(root, initial) {
    this.root = root;
    this.state = null;
    this.clock = new K.Clock();
    var self = this;
    this.apply(initial);
    this.feed = new K.Feed(root.dataset.streamUrl, root.dataset.stateUrl, function (data) { self.apply(data); });
    setInterval(function () { self.tick(); }, 200);
  }

  BuzzerOverlay.prototype.apply = function (data) {
    if (!data) return;
    var prev = this.state;
    this.state = data;
    this.render(prev);
  };

  BuzzerOverlay.prototype.tick = function () {
    var node = this.root.querySelector("#bzo-clock");
    var rem = this.clock.remaining();
    if (rem === null) { node.hidden = true; return; }
    node.hidden = false;
    node.textContent = K.fmtClock(Math.max(rem, 0));
    node.classList.toggle("bzo-clock-low", rem <= 30000);
  };

  BuzzerOverlay.prototype.render = function (prev) {
    var s = this.state;
    var root = this.root;
    if (s.error) { root.querySelector("#bzo-status").textContent = s.error; return; }
    root.querySelector("#bzo-round").textContent = s.round.name;
    root.querySelector("#bzo-group").textContent = s.round.group || "";
    root.querySelector("#bzo-question").textContent = K.questionText(s);
    this.clock.set(s.clock);
    this.tick();
    var before = {};
    if (prev && prev.players) prev.players.forEach(function (p) { before[p.id] = p; });
    var unit = K.display(s).unit || "";
    var tied = {};
    (s.decisions || []).forEach(function (d) {
      if (!d.resolved) d.candidates.forEach(function (pid) { tied[pid] = true; });
    });
    var box = root.querySelector("#bzo-players");
    box.style.setProperty("--n", String(Math.max(s.players.length, 1)));
    box.innerHTML = "";
    // A hall of entrants (written rounds) does not fit a frame: the counts stand in for it,
    // as on the stage scoreboard.
    var hall = s.players.length > 16;
    root.classList.toggle("bzo-hall", hall);
    s.players.forEach(function (p) {
      if (hall) return;
      var old = before[p.id];
      var changed = old && (old.main !== p.main || old.wrong !== p.wrong || old.status !== p.status);
      var status = tied[p.id] ? (K.isPlayoff(s) ? T("プレーオフ") : T("サドンデス")) : p.label || "";
      var extra = K.factorsText(p) || (p.wrong ? "×" + p.wrong : "");
      box.appendChild(el("div", {
        className: "bzo-row bzo-st-" + p.status + (p.resting ? " bzo-resting" : "") + (changed ? " bzo-bump" : "") + (tied[p.id] ? " bzo-sd" : ""),
        "data-player": p.id
      }, [
        el("span", { className: "bzo-seat", text: String(p.seat) }),
        el("span", { className: "bzo-name", text: p.name }),
        el("span", { className: "bzo-score" }, [
          el("span", { className: "bzo-main", text: String(p.main) }),
          el("span", { className: "bzo-unit", text: unit })
        ]),
        el("span", { className: "bzo-wrong", text: extra }),
        el("span", { className: "bzo-tags" }, [
          K.display(s).sets ? el("span", { className: "bzo-tag", text: T("{n}セット", { n: p.sets || 0 }) }) : null,
          p.streak ? el("span", { className: "bzo-tag bzo-streak", text: T("連答") }) : null
        ]),
        el("span", { className: "bzo-status", text: status })
      ]));
    });
    var foot = "";
    if (hall) {
      var standing = s.players.filter(function (p) { return p.status === "active" || p.status === "locked"; }).length;
      var passed = s.players.filter(function (p) { return p.status === "won"; }).length;
      foot = T("残り {standing}人 ／ 着席 {seated}人", { standing: standing, seated: s.players.length - standing - passed }) + (passed ? " ／ " + T("通過 {n}人", { n: passed }) : "");
    } else if (s.phase === "over") foot = T("勝ち抜け: {names}", { names: s.winners.map(function (pid) { return s.names[pid] || pid; }).join(T("・")) });
    else if (s.round.slots) foot = T("勝ち抜け {n} / {slots}", { n: s.winners.length, slots: s.round.slots });
    root.querySelector("#bzo-status").textContent = foot;
    var answerBox = root.querySelector("#bzo-answer");
    var shown = K.answerText(s);
    answerBox.hidden = !shown;
    answerBox.innerHTML = "";
    if (shown) {
      answerBox.appendChild(el("div", { className: "bzo-answer-head", text: shown.head }));
      answerBox.appendChild(el("div", { className: "bzo-answer-text", text: shown.answer }));
    }
  };

  window.BuzzerOverlay = { start: function (root, initial) { return new BuzzerOverlay(root, initial); } };
})();
