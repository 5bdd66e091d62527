/* Live buzzer rounds: operator console (BuzzerConsole) and stage scoreboard (BuzzerBoard).
 *
 * Neither decides a rule. Both draw the JSON the server builds from the engine's replayed
 * state; the console enables exactly the buttons the engine allows and sends each tap with
 * the sequence number it has seen (a stale screen is refused) and a one-time key (a resent
 * tap is recorded once). Updates arrive by server-sent events; EventSource reconnects by
 * itself (the server ends each stream after ~40 s and after restarts), and a plain JSON poll
 * takes over while the stream is down. No build step, no CDN.
 */
(function () {
  "use strict";

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") node.textContent = attrs[k];
        else if (k === "className") node.className = attrs[k];
        else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) node.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  // UI strings come translated from the page (a JSON blob the template renders with the
  // active language, id "bz-i18n"); the Japanese text is both the key and the fallback, so a
  // page without the blob still shows Japanese. "{name}" placeholders are filled from params.
  var I18N = null;
  function T(text, params) {
    if (I18N === null) {
      var node = document.getElementById("bz-i18n");
      try { I18N = node ? JSON.parse(node.textContent) : {}; } catch (e) { I18N = {}; }
    }
    var out = I18N[text] || text;
    if (params) {
      out = out.replace(/\{(\w+)\}/g, function (m, k) { return params[k] !== undefined && params[k] !== null ? String(params[k]) : m; });
    }
    return out;
  }

  // How a round is shown comes with its state (the engine's "display" hints and each row's
  // "main" and "factors"), so the screens compare no scoring or rule slug.
  function display(state) {
    return (state || {}).display || {};
  }

  // The deciding round is an 早押しプレーオフ (M3/M5) or a サドンデス (L11).
  function isPlayoff(state) {
    return display(state).tiebreak === "playoff";
  }

  // 10by10 (M3): the two factors of the total (正解ポイント × 誤答ポイント).
  function factorsText(p) {
    return p.factors ? p.factors.join(" × ") : null;
  }

  function fmtClock(ms) {
    if (ms === null || ms === undefined) return "";
    var neg = ms < 0;
    var s = Math.ceil(Math.abs(ms) / 1000);
    var text = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    return neg ? "-" + text : text;
  }

  function questionText(state) {
    if (state.phase === "over") return T("終了（{n}問）", { n: state.question });
    // Judging at the time/limit is pending (M5 after the 5 minutes, L1 at Q35): no question
    // is in play any more, so say the questions are over and what is awaited.
    if (state.phase === "deciding") {
      return isPlayoff(state) ? T("{n}問 終了 ・ プレーオフ待ち", { n: state.question }) : T("{n}問 終了 ・ サドンデス待ち", { n: state.question });
    }
    if (state.question_limit && state.question >= state.question_limit) return T("{n}問 終了", { n: state.question_limit });
    var text = T("第{n}問", { n: state.question + 1 });
    if (state.question_limit) text += " / " + state.question_limit;
    return text;
  }

  // The last judged question's answer (the payload has it only when the round shows it).
  function answerText(s) {
    var a = s && s.answer;
    if (!a) return null;
    return { head: T("第{n}問の答え", { n: a.round_question }), answer: a.answer, question: a.question };
  }

  function uid() {
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10) + "-" + Math.random().toString(36).slice(2, 10);
  }

  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  /* A clock reading that keeps ticking between server updates. */
  function Clock() {
    this.reading = null;
    this.limit = null;
    this.running = false;
    this.at = 0;
  }
  Clock.prototype.set = function (c) {
    this.limit = c ? c.limit_ms : null;
    this.reading = c ? (c.reading_ms !== undefined ? c.reading_ms : c.elapsed_ms) : null;
    this.running = !!(c && c.running);
    this.expired = !!(c && c.expired);
    this.at = performance.now();
  };
  Clock.prototype.remaining = function () {
    if (this.limit === null || this.limit === undefined) return null;
    var reading = this.reading || 0;
    if (this.running) reading += performance.now() - this.at;
    return this.limit - reading;
  };

  /* What a screen redraws on: the round's display version (a tap, a settings edit, a
   * question file), or its seq for a payload without one (an error payload). */
  function versionOf(data) {
    return data && data.version !== undefined ? String(data.version) : String(data && data.seq);
  }

  /* Subscribe to a round's state stream; fall back to polling while it is down. */
  function Feed(streamUrl, stateUrl, onState, onConn) {
    var self = this;
    this.lastMessage = 0;
    this.pollTimer = null;
    this.onState = onState;
    this.stateUrl = stateUrl;
    this.onConn = onConn || function () {};
    if (window.EventSource) {
      this.source = new EventSource(streamUrl);
      this.source.addEventListener("state", function (ev) {
        self.lastMessage = Date.now();
        self.onConn(true);
        self.stopPoll();
        try { onState(JSON.parse(ev.data)); } catch (e) { /* ignore a torn message */ }
      });
      this.source.onopen = function () { self.lastMessage = Date.now(); self.onConn(true); self.stopPoll(); };
      this.source.onerror = function () { self.onConn(false); self.startPoll(); };
    } else {
      this.startPoll();
    }
    // Watchdog: a stream that is neither open nor delivering gets a poll alongside.
    setInterval(function () {
      if (!self.source || self.source.readyState !== 1) self.startPoll();
    }, 3000);
  }
  Feed.prototype.startPoll = function () {
    var self = this;
    if (this.pollTimer) return;
    this.pollTimer = setInterval(function () { self.poll(); }, 1000);
    this.poll();
  };
  Feed.prototype.stopPoll = function () {
    if (this.pollTimer) { clearInterval(this.pollTimer); this.pollTimer = null; }
  };
  Feed.prototype.poll = function () {
    var self = this;
    fetch(this.stateUrl, { headers: { Accept: "application/json" }, cache: "no-cache", credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) { self.onState(data); })
      .catch(function () { self.onConn(false); });
  };

  // ------------------------------------------------------------------ operator console

  var KIND_LABELS = {
    correct: "○", wrong: "×", thru: T("スルー"), undo: T("取り消し"), board: T("ボード"), written: T("筆記"),
    clock_start: T("時計開始"), clock_stop: T("時計停止"), clock_expire: T("時間切れ"), tiebreak: T("サドンデス結果")
  };
  var SIDE_LABELS = { win: T("勝ち抜け側"), loss: T("失格側"), both: T("勝ち抜け・失格の両側") };

  function BuzzerConsole(root, initial) {
    this.root = root;
    this.state = initial;
    this.busy = false;
    this.selected = null;
    this.digitBuffer = "";
    this.digitTimer = null;
    this.boardMarks = {};
    this.buzz = null;  // board rounds: {player, correct} of the one who buzzed on this question
    this.order = [];
    this.clock = new Clock();
    this.flashTimer = null;
    this.expirePrompted = false;
    this.bind();
    this.render();
    var self = this;
    this.feed = new Feed(root.dataset.streamUrl, root.dataset.stateUrl, function (data) {
      // The public stream says "something changed"; fetch the console view when it did.
      if (self.busy) return;
      // The version moves on a tap, a settings edit or a question file (not only the seq).
      if (versionOf(data) !== versionOf(self.state)) self.refresh();
    });
    setInterval(function () { self.tickClock(); }, 200);
  }

  BuzzerConsole.prototype.refresh = function () {
    var self = this;
    fetch(this.root.dataset.stateUrl, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) { if (!self.busy && data.players) { self.state = data; self.render(); } })
      .catch(function () {});
  };

  BuzzerConsole.prototype.flash = function (text, kind) {
    var box = this.root.querySelector("#bz-flash");
    box.textContent = text;
    box.className = "bz-flash bz-flash-" + (kind || "info");
    clearTimeout(this.flashTimer);
    if (kind !== "error") {
      this.flashTimer = setTimeout(function () { box.textContent = ""; box.className = "bz-flash"; }, 2500);
    }
  };

  BuzzerConsole.prototype.send = function (kind, extra) {
    var self = this;
    if (this.busy) { this.flash(T("送信中です…"), "info"); return; }
    var allowed = this.allowedFor(kind, extra && extra.player);
    if (!allowed.ok) { this.flash(allowed.reason, "error"); return; }
    var form = new FormData();
    form.append("kind", kind);
    form.append("expected_seq", String(this.state.seq));
    form.append("key", uid());
    if (kind === "correct" || kind === "wrong" || kind === "thru" || kind === "board") {
      form.append("question", String(this.state.question + 1));
    }
    Object.keys(extra || {}).forEach(function (k) {
      var v = extra[k];
      if (Array.isArray(v)) v.forEach(function (x) { form.append(k, x); });
      else form.append(k, v);
    });
    this.busy = true;
    this.root.classList.add("bz-busy");
    var attempt = 0;
    function go() {
      attempt += 1;
      fetch(self.root.dataset.tapUrl, {
        method: "POST",
        body: form,
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrfToken() }
      })
        .then(function (r) { return r.json().then(function (body) { return { status: r.status, body: body }; }); })
        .then(function (res) {
          self.busy = false;
          self.root.classList.remove("bz-busy");
          if (res.body && res.body.players) self.state = res.body;
          if (res.body && res.body.ok) {
            self.selected = null;
            self.boardMarks = {};
            self.buzz = null;
            self.order = [];
            self.flash(res.body.duplicate ? T("同じ操作はすでに記録済みです") : T("記録: {what}", { what: self.describe(kind, extra) }), "ok");
          } else {
            self.flash((res.body && res.body.error) || T("記録できませんでした"), "error");
          }
          self.render();
        })
        .catch(function () {
          if (attempt < 4) { setTimeout(go, 300 * attempt); return; }  // same key: recorded once
          self.busy = false;
          self.root.classList.remove("bz-busy");
          self.flash(T("通信できません。接続を確認してください（記録されていない可能性があります）"), "error");
          self.refresh();
        });
    }
    go();
  };

  BuzzerConsole.prototype.describe = function (kind, extra) {
    var label = KIND_LABELS[kind] || kind;
    if (extra && extra.player) {
      var p = this.state.players.filter(function (x) { return x.id === extra.player; })[0];
      if (p) return T("{seat}番 {name}", { seat: p.seat, name: p.name }) + " " + label;
    }
    return label;
  };

  BuzzerConsole.prototype.allowedFor = function (kind, player) {
    var s = this.state;
    if (s.error) return { ok: false, reason: s.error };
    if (player) {
      var p = s.players.filter(function (x) { return x.id === player; })[0];
      if (!p) return { ok: false, reason: T("その席はありません") };
      if ((p.actions || []).indexOf(kind) < 0) return { ok: false, reason: p.blocked || T("今はできません") };
      return { ok: true };
    }
    if ((s.allowed || []).indexOf(kind) < 0) {
      var reasons = { undo: T("これ以上取り消せません（最初の状態です）"), thru: T("今はスルーできません") };
      return { ok: false, reason: reasons[kind] || T("今はできません") };
    }
    return { ok: true };
  };

  BuzzerConsole.prototype.bind = function () {
    var self = this;
    this.root.addEventListener("click", function (ev) {
      var btn = ev.target.closest("button[data-kind]");
      if (!btn || btn.disabled) return;
      var kind = btn.dataset.kind;
      if (btn.dataset.player) {
        if (self.isBoard()) { self.toggleBuzz(btn.dataset.player, kind === "correct"); return; }
        self.send(kind, { player: btn.dataset.player });
        return;
      }
      if (kind === "board") { self.sendBoard(); return; }
      if (kind === "tiebreak") {
        self.send("tiebreak", { side: btn.dataset.side, order: self.order.slice() });
        return;
      }
      if (kind === "clock_expire") { self.send("clock_expire", { question_in_play: btn.dataset.inPlay }); return; }
      self.send(kind, {});
    });
    this.root.addEventListener("change", function (ev) {
      if (ev.target.matches("input[data-board]")) self.boardMarks[ev.target.dataset.board] = ev.target.checked;
    });
    this.root.querySelector("#bz-clock-expire").addEventListener("click", function () { self.showExpire(); });
    document.addEventListener("keydown", function (ev) { self.onKey(ev); });
  };

  BuzzerConsole.prototype.isBoard = function () {
    return (this.state.allowed || []).indexOf("board") >= 0;
  };

  /* Board rounds (L5, L6): ○/× mark the buzz of this question; it is sent with the boards. */
  BuzzerConsole.prototype.toggleBuzz = function (player, correct) {
    if (this.buzz && this.buzz.player === player && this.buzz.correct === correct) this.buzz = null;
    else this.buzz = { player: player, correct: correct };
    if (this.buzz) this.boardMarks[player] = false;
    this.render();
  };

  BuzzerConsole.prototype.sendBoard = function () {
    var self = this;
    var extra = { correct: Object.keys(this.boardMarks).filter(function (k) { return self.boardMarks[k]; }) };
    if (this.buzz) { extra.buzzer = this.buzz.player; extra.buzzer_correct = this.buzz.correct ? "1" : "0"; }
    this.send("board", extra);
  };

  BuzzerConsole.prototype.onKey = function (ev) {
    if (ev.target && ev.target.closest && ev.target.closest("input, textarea, select")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var key = ev.key;
    var self = this;
    if (/^[0-9]$/.test(key)) {
      var seats = this.state.players.map(function (p) { return p.seat; });
      var combined = Number(this.digitBuffer + key);
      var seat;
      if (this.digitBuffer && seats.indexOf(combined) >= 0) { seat = combined; this.digitBuffer = ""; }
      else { seat = key === "0" ? 10 : Number(key); this.digitBuffer = key; }
      clearTimeout(this.digitTimer);
      this.digitTimer = setTimeout(function () { self.digitBuffer = ""; }, 800);
      var p = this.state.players.filter(function (x) { return x.seat === seat; })[0];
      if (p) { this.selected = p.id; this.render(); this.flash(T("{seat}番 {name} を選択（o=○ / x=×）", { seat: p.seat, name: p.name }), "info"); }
      ev.preventDefault();
      return;
    }
    var lower = key.toLowerCase();
    if (lower === "o" || lower === "x") {
      if (!this.selected) { this.flash(T("先に席番号のキーを押してください"), "error"); return; }
      if (this.isBoard()) this.toggleBuzz(this.selected, lower === "o");
      else this.send(lower === "o" ? "correct" : "wrong", { player: this.selected });
      ev.preventDefault();
    } else if (lower === "b" && this.isBoard()) {
      if (this.selected) { this.boardMarks[this.selected] = !this.boardMarks[this.selected]; this.render(); }
      ev.preventDefault();
    } else if (key === "Enter" && this.isBoard()) {
      this.sendBoard(); ev.preventDefault();
    } else if (lower === "t") {
      this.send("thru", {}); ev.preventDefault();
    } else if (lower === "u" || key === "Backspace") {
      this.send("undo", {}); ev.preventDefault();
    } else if (lower === "s") {
      if (this.state.clock && this.state.clock.limit_ms) {
        this.send(this.state.clock.running ? "clock_stop" : "clock_start", {}); ev.preventDefault();
      }
    } else if (key === "Escape") {
      this.selected = null; this.render();
    }
  };

  BuzzerConsole.prototype.showExpire = function () {
    var box = this.root.querySelector("#bz-decision");
    box.hidden = false;
    box.innerHTML = "";
    box.appendChild(el("h2", { className: "h5", text: T("時間切れ") }));
    box.appendChild(el("p", { text: T("時間切れの瞬間に読み上げ中だった問題は有効ですか？") }));
    box.appendChild(el("div", { className: "d-flex gap-2 flex-wrap" }, [
      el("button", { type: "button", className: "btn btn-danger btn-lg", "data-kind": "clock_expire", "data-in-play": "1", text: T("読み上げ中の問題あり（その問題まで）") }),
      el("button", { type: "button", className: "btn btn-outline-danger btn-lg", "data-kind": "clock_expire", "data-in-play": "0", text: T("読み上げ中の問題なし（ここで終了）") })
    ]));
  };

  BuzzerConsole.prototype.tickClock = function () {
    var rem = this.clock.remaining();
    var node = this.root.querySelector("#bz-clock");
    if (rem === null) return;
    node.textContent = fmtClock(Math.max(rem, 0));
    node.classList.toggle("bz-clock-low", rem <= 30000);
    if (rem <= 0 && this.clock.running && !this.expirePrompted) {
      this.expirePrompted = true;
      this.showExpire();
      this.flash(T("時間切れです。読み上げ中の問題の扱いを選んでください"), "error");
    }
  };

  BuzzerConsole.prototype.render = function () {
    var s = this.state;
    var self = this;
    if (s.error) { this.flash(s.error, "error"); return; }
    this.root.querySelector("#bz-question").textContent = questionText(s);
    // clock
    var hasClock = s.clock && s.clock.limit_ms;
    var clockBox = this.root.querySelector("#bz-clock-box");
    clockBox.hidden = !hasClock;
    this.clock.set(s.clock);
    if (hasClock) {
      var toggle = this.root.querySelector("#bz-clock-toggle");
      var running = s.clock.running;
      toggle.dataset.kind = running ? "clock_stop" : "clock_start";
      toggle.textContent = running ? T("時計 停止") + " (s)" : T("時計 開始") + " (s)";
      toggle.disabled = (s.allowed || []).indexOf(toggle.dataset.kind) < 0;
      this.root.querySelector("#bz-clock-expire").disabled = (s.allowed || []).indexOf("clock_expire") < 0;
      if (!running) this.expirePrompted = false;
      this.tickClock();
    }
    // seats
    var seats = this.root.querySelector("#bz-seats");
    seats.innerHTML = "";
    var board = (s.allowed || []).indexOf("board") >= 0;
    this.root.classList.toggle("bz-is-board", board);
    s.players.forEach(function (p) {
      var canC = (p.actions || []).indexOf("correct") >= 0;
      var canW = (p.actions || []).indexOf("wrong") >= 0;
      var badges = [];
      if (p.label) badges.push(el("span", { className: "bz-badge bz-st-" + p.status + (p.resting ? " bz-st-resting" : ""), text: p.label }));
      if (p.streak) badges.push(el("span", { className: "bz-badge bz-streak", text: T("連答") }));
      if (display(s).sets) badges.unshift(el("span", { className: "bz-badge bz-sets", text: T("{n}セット", { n: p.sets || 0 }) }));
      var card = el("div", {
        className: "bz-seat bz-st-" + p.status + (p.resting ? " bz-st-resting" : "") + (self.selected === p.id ? " bz-selected" : "") +
          (self.buzz && self.buzz.player === p.id ? (self.buzz.correct ? " bz-buzz-o" : " bz-buzz-x") : ""),
        "data-seat": p.seat
      }, [
        el("div", { className: "bz-seat-head" }, [
          el("span", { className: "bz-seatno", text: String(p.seat) }),
          el("span", { className: "bz-name", text: p.name })
        ]),
        el("div", { className: "bz-score" }, [
          el("span", { className: "bz-main", text: String(p.main) + display(s).unit }),
          el("span", { className: "bz-wrong", text: p.wrong + "×" }),
          factorsText(p) ? el("span", { className: "bz-by", text: "(" + factorsText(p) + ")" }) : null,
          el("span", { className: "bz-badges" }, badges)
        ]),
        el("div", { className: "bz-buttons" }, [
          el("button", { type: "button", className: "btn bz-btn bz-btn-o", "data-kind": "correct", "data-player": p.id, disabled: !canC, "aria-label": T("{seat}番", { seat: p.seat }) + " ○", text: "○" }),
          el("button", { type: "button", className: "btn bz-btn bz-btn-x", "data-kind": "wrong", "data-player": p.id, disabled: !canW, "aria-label": T("{seat}番", { seat: p.seat }) + " ×", text: "×" })
        ]),
        board && (p.actions || []).indexOf("board") >= 0
          ? el("label", { className: "bz-boardmark" }, [el("input", { type: "checkbox", "data-board": p.id, checked: self.boardMarks[p.id] ? "checked" : null }), document.createTextNode(" " + T("ボード正解"))])
          : null,
        (!canC && p.blocked) ? el("div", { className: "bz-blocked", text: p.blocked }) : null
      ]);
      seats.appendChild(card);
    });
    // footer buttons
    var thru = this.root.querySelector("#bz-thru");
    thru.disabled = (s.allowed || []).indexOf("thru") < 0;
    this.root.querySelector("#bz-undo").disabled = (s.allowed || []).indexOf("undo") < 0;
    var foot = this.root.querySelector(".bz-foot");
    var boardBtn = foot.querySelector("#bz-board");
    if (board && !boardBtn) {
      boardBtn = el("button", { type: "button", id: "bz-board", className: "btn btn-primary bz-big", "data-kind": "board", text: T("ボード結果を記録") });
      foot.insertBefore(boardBtn, foot.firstChild);
    } else if (!board && boardBtn) {
      boardBtn.remove();
    }
    this.renderQuestion();
    this.renderDecision();
    this.renderLog();
  };

  // The reader's card: the question being read with its answer and notes (console only).
  // Two lines beside the seats: question | file, answer and notes | the last judged answer.
  BuzzerConsole.prototype.renderQuestion = function () {
    var box = this.root.querySelector("#bz-qcard");
    if (!box) return;
    var q = this.state.questions;
    box.hidden = !q;
    this.root.classList.toggle("bz-has-q", !!q);
    box.innerHTML = "";
    if (!q) return;
    var cur = q.current;
    var text = cur
      ? el("p", { className: "bz-qtext" }, [el("span", { className: "bz-qno", text: T("問題 No.{n}", { n: cur.number }) }), document.createTextNode(cur.question)])
      : el("p", { className: "bz-qtext bz-qempty", text: q.exhausted ? T("問題ファイルの問題を使い切りました") : T("ラウンドは終了しました") });
    var meta = el("div", { className: "bz-qmeta" }, [
      q.thrown ? el("span", { className: "bz-badge bz-qthrown", text: T("没問 {n}問（差し替え済み）", { n: q.thrown }) }) : null,
      el("span", { className: "bz-qfile", text: T("{file}（{count}問）", { file: q.filename, count: q.count }) })
    ]);
    var answer = cur
      ? el("p", { className: "bz-qanswer" }, [
        el("span", { className: "bz-qlabel", text: T("答え") }),
        el("strong", { text: cur.answer }),
        cur.notes ? el("span", { className: "bz-qnotes", text: cur.notes }) : null
      ])
      : el("p", { className: "bz-qanswer" });
    var prev = el("div", { className: "bz-qprev", text: q.judged ? T("前の問題 No.{n} の答え: {answer}", { n: q.judged.number, answer: q.judged.answer }) : "" });
    [text, meta, answer, prev].forEach(function (node) { box.appendChild(node); });
  };

  BuzzerConsole.prototype.renderDecision = function () {
    var s = this.state;
    var box = this.root.querySelector("#bz-decision");
    var pending = (s.decisions || []).filter(function (d) { return !d.resolved; });
    if (s.phase === "over" && this.root.dataset.applyUrl) {
      // A finished sudden death: its order goes back to the round that asked for it.
      box.hidden = false;
      box.innerHTML = "";
      // M3/M5 playoff sub-rounds say プレーオフ (the parent's rule, data-playoff), L11 サドンデス.
      var playoffSub = this.root.dataset.playoff === "1";
      var ranking = (s.ranking || []).map(function (r) { return r.name; }).join(" → ");
      box.appendChild(el("p", { text: playoffSub ? T("プレーオフが終わりました。順位: {ranking}", { ranking: ranking }) : T("サドンデスが終わりました。順位: {ranking}", { ranking: ranking }) }));
      box.appendChild(el("form", { method: "post", action: this.root.dataset.applyUrl }, [
        el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
        el("button", { className: "btn btn-warning btn-lg", text: playoffSub ? T("プレーオフの結果を元のラウンドに反映") : T("サドンデスの結果を元のラウンドに反映") })
      ]));
      return;
    }
    if (s.phase === "over" && this.root.dataset.nextUrl) {
      box.hidden = false;
      box.innerHTML = "";
      box.appendChild(el("p", { className: "mb-2", text: T("このラウンドは終了しました。勝ち抜け: {names}", { names: (s.winners || []).map(function (pid) { return (s.names || {})[pid] || pid; }).join(T("、")) }) }));
      box.appendChild(el("a", { className: "btn btn-primary", href: this.root.dataset.nextUrl, text: T("次のラウンドを作成（プリセット）") }));
      return;
    }
    if (s.phase !== "deciding" || !pending.length) {
      if (!this.expirePrompted) { box.hidden = true; box.innerHTML = ""; }
      return;
    }
    var self = this;
    box.hidden = false;
    box.innerHTML = "";
    pending.forEach(function (d) {
      var names = {};
      d.candidates.forEach(function (pid, i) { names[pid] = d.names[i]; });
      var section = el("div", { className: "bz-decision-one" });
      section.appendChild(el("h2", { className: "h5", text: isPlayoff(s) ? T("プレーオフ（{side}）が必要です", { side: SIDE_LABELS[d.side] || d.side }) : T("サドンデス（{side}）が必要です", { side: SIDE_LABELS[d.side] || d.side }) }));
      section.appendChild(el("p", { text: T("対象: {names} ／ 上位 {places} 人", { names: d.names.join(T("、")), places: d.places }) + (d.out_places ? T("・失格 {n} 人", { n: d.out_places }) : "") }));
      var form = el("form", { method: "post", action: self.root.dataset.tiebreakUrl, className: "d-inline" }, [
        el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
        el("input", { type: "hidden", name: "side", value: d.side }),
        el("button", { className: "btn btn-warning btn-lg", text: isPlayoff(s) ? T("プレーオフを開始（別画面）") : T("サドンデスを開始（別画面）") })
      ]);
      section.appendChild(form);
      section.appendChild(el("p", { className: "mt-2 mb-1 small", text: T("または決着順（プレーオフ結果）を上から順にタップ:") }));
      var picks = el("div", { className: "d-flex flex-wrap gap-2" });
      d.candidates.forEach(function (pid) {
        var idx = self.order.indexOf(pid);
        var b = el("button", { type: "button", className: "btn " + (idx >= 0 ? "btn-dark" : "btn-outline-dark"), text: (idx >= 0 ? T("{n}位", { n: idx + 1 }) + " " : "") + names[pid] });
        b.addEventListener("click", function () {
          var i = self.order.indexOf(pid);
          if (i >= 0) self.order.splice(i, 1); else self.order.push(pid);
          self.renderDecision();
        });
        picks.appendChild(b);
      });
      section.appendChild(picks);
      var ready = d.candidates.every(function (pid) { return self.order.indexOf(pid) >= 0; });
      section.appendChild(el("button", { type: "button", className: "btn btn-primary mt-2", "data-kind": "tiebreak", "data-side": d.side, disabled: !ready, text: T("この順で確定") }));
      box.appendChild(section);
    });
  };

  BuzzerConsole.prototype.renderLog = function () {
    var body = this.root.querySelector("#bz-log");
    var names = this.state.names || {};
    body.innerHTML = "";
    (this.state.log || []).forEach(function (r) {
      var what = KIND_LABELS[r.kind] || r.kind;
      if (r.data && r.data.player) what = (names[r.data.player] || r.data.player) + " " + what;
      if (r.data && r.data.question && r.kind !== "undo") what = T("第{n}問", { n: r.data.question }) + " " + what;
      if (r.text) what = r.text;  // a protest: the server says what was decided
      if (r.superseded_by) what += " " + T("→ 審議で変更（#{seq}）", { seq: r.superseded_by });
      var cls = r.in_effect ? "" : "text-muted text-decoration-line-through";
      if (r.superseded_by) cls = "text-muted bz-superseded";
      body.appendChild(el("tr", { className: cls + (r.text ? " table-warning" : "") }, [
        el("td", { text: String(r.seq) }), el("td", { text: what }), el("td", { text: r.by }), el("td", { text: r.at })
      ]));
    });
  };

  // ------------------------------------------------------------------- stage scoreboard

  function BuzzerBoard(root, initial) {
    this.root = root;
    this.state = null;
    this.clock = new Clock();
    var self = this;
    this.apply(initial);
    this.feed = new Feed(root.dataset.streamUrl, root.dataset.stateUrl, function (data) { self.apply(data); }, function (up) {
      root.querySelector("#bzb-conn").className = "bzb-conn " + (up ? "bzb-up" : "bzb-down");
    });
    setInterval(function () { self.tick(); }, 200);
  }

  BuzzerBoard.prototype.apply = function (data) {
    if (!data) return;
    if (this.state && versionOf(data) === versionOf(this.state) && !data.error && this.state.clock && data.clock &&
        data.clock.running === this.state.clock.running) return;
    var prev = this.state;
    this.state = data;
    this.render(prev);
  };

  BuzzerBoard.prototype.tick = function () {
    var node = this.root.querySelector("#bzb-clock");
    var rem = this.clock.remaining();
    if (rem === null) { node.hidden = true; return; }
    node.hidden = false;
    node.textContent = fmtClock(Math.max(rem, 0));
    node.classList.toggle("bzb-clock-low", rem <= 30000);
    node.classList.toggle("bzb-clock-stopped", !this.clock.running);
  };

  BuzzerBoard.prototype.render = function (prev) {
    var s = this.state;
    var root = this.root;
    if (s.error) { root.querySelector("#bzb-status").textContent = s.error; return; }
    root.querySelector("#bzb-round").textContent = s.round.name;
    root.querySelector("#bzb-group").textContent = s.round.group || "";
    root.querySelector("#bzb-question").textContent = questionText(s);
    this.clock.set(s.clock);
    this.tick();
    var before = {};
    if (prev && prev.players) prev.players.forEach(function (p) { before[p.id] = p; });
    var box = root.querySelector("#bzb-players");
    var n = s.players.length;
    var many = n > 16;
    var seatsOnly = n > 40;  // a hall of entrants (written rounds): seat numbers only
    var cols = seatsOnly ? Math.ceil(Math.sqrt(n * 1.9)) : many ? Math.ceil(Math.sqrt(n * 1.3)) : Math.max(n, 4);
    box.className = "bzb-players" + (many ? " bzb-many" : "") + (seatsOnly ? " bzb-seats-only" : "");
    box.style.setProperty("--cols", String(cols));
    box.style.setProperty("--rows", String(Math.ceil(n / cols)));
    box.style.setProperty("--max", n <= 6 ? "19vh" : "13vh");
    box.innerHTML = "";
    var unit = display(s).unit;
    var tied = {};
    (s.decisions || []).forEach(function (d) {
      if (!d.resolved) d.candidates.forEach(function (pid) { tied[pid] = true; });
    });
    s.players.forEach(function (p) {
      var old = before[p.id];
      var changed = old && (old.correct !== p.correct || old.wrong !== p.wrong || old.points !== p.points || old.status !== p.status);
      var cls = "bzb-card bzb-st-" + p.status + (p.resting ? " bzb-resting" : "") + (changed ? " bzb-bump" : "") + (tied[p.id] ? " bzb-sd" : "");
      var status = tied[p.id] ? (isPlayoff(s) ? T("プレーオフ") : T("サドンデス")) : p.label || "";
      var children = [
        el("div", { className: "bzb-seat", text: String(p.seat) }),
        el("div", { className: "bzb-main", style: "--len:" + Math.max(String(p.main).length, 1), text: String(p.main) }),
        el("div", { className: "bzb-unit", text: unit }),
        factorsText(p)
          ? el("div", { className: "bzb-wrong bzb-by", text: factorsText(p) })
          : el("div", { className: "bzb-wrong", text: p.wrong ? "×" + p.wrong : "" }),
        el("div", { className: "bzb-name", text: p.name }),
        el("div", { className: "bzb-tags" }, [
          display(s).sets ? el("span", { className: "bzb-sets", text: T("{n}セット", { n: p.sets || 0 }) }) : null,
          p.streak ? el("span", { className: "bzb-streak", text: T("連答") }) : null,
          p.resting && p.status !== "active" ? el("span", { className: "bzb-rest", text: T("{n}休", { n: p.rests }) }) : null
        ]),
        el("div", { className: "bzb-status", text: status })
      ];
      if (seatsOnly) {
        children = [el("span", { className: "bzb-seat", text: String(p.seat) })];
      } else if (many) {
        children = [
          el("span", { className: "bzb-seat", text: String(p.seat) }),
          el("span", { className: "bzb-name", text: p.name }),
          el("span", { className: "bzb-status", text: status || (p.wrong ? "×" + p.wrong : "") })
        ];
      }
      box.appendChild(el("div", { className: cls, "data-player": p.id }, children));
    });
    var foot = "";
    if (many) {
      var standing = s.players.filter(function (p) { return p.status === "active" || p.status === "locked"; }).length;
      var passed = s.players.filter(function (p) { return p.status === "won"; }).length;
      foot = T("残り {standing}人 ／ 着席 {seated}人", { standing: standing, seated: n - standing - passed }) + (passed ? " ／ " + T("通過 {n}人", { n: passed }) : "");
    }
    if (s.phase === "deciding") foot = isPlayoff(s) ? T("プレーオフ") : T("サドンデス");
    else if (s.phase === "over") foot = T("勝ち抜け: {names}", { names: s.winners.map(function (pid) { return s.names[pid] || pid; }).join(T("・")) });
    else if (s.round.slots && !many) foot = T("勝ち抜け {n} / {slots}", { n: s.winners.length, slots: s.round.slots });
    root.querySelector("#bzb-status").textContent = foot;
    var answerBox = root.querySelector("#bzb-answer");
    var shown = answerText(s);
    answerBox.hidden = !shown;
    answerBox.innerHTML = "";
    if (shown) {
      answerBox.appendChild(el("div", { className: "bzb-answer-head", text: shown.head }));
      answerBox.appendChild(el("div", { className: "bzb-answer-text", text: shown.answer }));
      answerBox.appendChild(el("div", { className: "bzb-answer-q", text: shown.question }));
    }
  };

  window.BuzzerConsole = { start: function (root, initial) { return new BuzzerConsole(root, initial); } };
  window.BuzzerBoard = { start: function (root, initial) { return new BuzzerBoard(root, initial); } };
  // The stream overlays (buzzer_overlay.js) draw the same payload with the same helpers.
  window.BuzzerKit = { el: el, T: T, display: display, isPlayoff: isPlayoff, factorsText: factorsText,
    fmtClock: fmtClock, questionText: questionText, answerText: answerText, Feed: Feed, Clock: Clock };
})();
