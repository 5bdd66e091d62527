// The projector's call slot: polls 「次: C組 → A台」 and chimes (WebAudio, no file, no
// network) when a new call or a repeated call appears. Browsers allow sound only after a
// tap, hence the button.
(function () {
  "use strict";
  var slot = document.getElementById("floor-call-slot");
  if (!slot) return;
  var button = document.getElementById("floor-sound");
  var audio = null;
  var last = null;
  button.addEventListener("click", function () {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx) { audio = audio || new Ctx(); audio.resume(); }
    button.hidden = true;
  });

  function tone(freq, start, length) {
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, audio.currentTime + start);
    gain.gain.exponentialRampToValueAtTime(0.4, audio.currentTime + start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(audio.currentTime + start);
    osc.stop(audio.currentTime + start + length + 0.05);
  }

  function chime() {
    slot.dataset.chimes = String(Number(slot.dataset.chimes || "0") + 1);
    if (!audio) return;
    tone(880, 0, 0.6);   // ピン
    tone(660, 0.45, 0.9); // ポーン
  }

  function poll() {
    fetch(slot.dataset.url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null) {
          slot.innerHTML = html;
          var call = slot.querySelector(".floor-call");
          var id = call ? call.dataset.call : "";
          if (last !== null && id && id !== last) chime();
          last = id;
        }
        setTimeout(poll, 3000);
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  poll();
})();
