/* The desk's scan field (issue 15 item 5). A USB scanner types the code and Enter into
   the focused field: in the scan field that submits the form; in the search field a code
   (an address with /c/) is moved to the scan field instead of being searched for. The
   camera button reads the code with the vendored jsQR: live video where the browser allows
   the camera (https or localhost), else a photo taken with the tablet's camera app, which
   works on the venue's plain-http LAN too. Nothing leaves the venue. */
(function () {
  "use strict";
  var script = document.currentScript;
  var form = document.getElementById("scan-form");
  var field = document.getElementById("desk-scan");
  if (!form || !field) return;
  var CODE = /\/c\/[^\/\s]+/;

  function submit(code) {
    field.value = code;
    if (window.htmx) window.htmx.trigger(form, "submit"); else form.submit();
  }

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || e.target.id !== "desk-q") return;
    if (CODE.test(e.target.value)) {
      e.preventDefault(); e.stopImmediatePropagation();
      var code = e.target.value; e.target.value = "";
      submit(code);
    }
  }, true);

  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (!e.detail.target || e.detail.target.id !== "scan-result") return;
    field.value = ""; field.focus();
    var q = document.getElementById("desk-q");
    if (q && window.htmx) window.htmx.trigger(q, "search");  // the row's button follows
  });

  var camera = document.getElementById("scan-camera");
  var photo = document.getElementById("scan-photo");
  var box = document.getElementById("scan-video-box");
  var video = document.getElementById("scan-video");
  var stream = null;
  camera.hidden = false;

  function decode(source, width, height) {
    if (!window.jsQR) return null;
    var canvas = document.createElement("canvas");
    var scale = Math.min(1, 1024 / Math.max(width, height));
    canvas.width = Math.round(width * scale); canvas.height = Math.round(height * scale);
    var ctx = canvas.getContext("2d");
    ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
    var img = ctx.getImageData(0, 0, canvas.width, canvas.height);
    var found = window.jsQR(img.data, img.width, img.height);
    return found ? found.data : null;
  }

  function stop() {
    if (stream) stream.getTracks().forEach(function (t) { t.stop(); });
    stream = null; box.hidden = true;
  }

  function tick() {
    if (!stream) return;
    if (video.readyState >= 2) {
      var code = decode(video, video.videoWidth, video.videoHeight);
      if (code) { stop(); submit(code); return; }
    }
    window.requestAnimationFrame(tick);
  }

  camera.addEventListener("click", function () {
    var live = window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia;
    if (!live) { photo.click(); return; }
    navigator.mediaDevices.getUserMedia({video: {facingMode: "environment"}}).then(function (s) {
      stream = s; video.srcObject = s; box.hidden = false; video.play(); tick();
    }).catch(function () { photo.click(); });
  });
  document.getElementById("scan-stop").addEventListener("click", stop);

  photo.addEventListener("change", function () {
    var file = photo.files && photo.files[0];
    if (!file) return;
    var image = new Image();
    image.onload = function () {
      var code = decode(image, image.naturalWidth, image.naturalHeight);
      URL.revokeObjectURL(image.src); photo.value = "";
      if (code) submit(code); else window.alert(script.dataset.unreadable);
    };
    image.src = URL.createObjectURL(file);
  });
})();
