// Keyboard shortcuts for the buttons that carry data-key (a space-separated
// list of KeyboardEvent.key values); the choice shown at once (class
// "chosen") and one submission per page: a second press while the first
// answer is on its way does nothing; the completion code copied by a click;
// the visible countdown before the redirect to the completion URL; the note
// shown once the worker's lease on the pair has run out (data-lease-seconds).
(function () {
  "use strict";
  var sent = false;
  document.addEventListener("submit", function (e) {
    if (sent) { e.preventDefault(); return; }
    sent = true;
    var b = e.submitter;
    if (b && b.classList) {
      b.classList.add("chosen");
      b.setAttribute("aria-pressed", "true");
      e.target.classList.add("sending");
    }
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.repeat) { return; }
    var buttons = document.querySelectorAll("button[data-key]");
    for (var i = 0; i < buttons.length; i++) {
      var keys = buttons[i].getAttribute("data-key").split(" ");
      if (keys.indexOf(e.key) >= 0) {
        e.preventDefault();
        if (!sent) { buttons[i].click(); }
        return;
      }
    }
  });
  var copy = document.getElementById("copy");
  var code = document.getElementById("code");
  if (copy && code) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      var done = function () { copy.textContent = "Copied"; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(code.textContent).then(done, function () {
          window.getSelection().selectAllChildren(code);
        });
      } else {
        window.getSelection().selectAllChildren(code);
      }
    });
  }
  var form = document.getElementById("answer");
  var note = document.getElementById("lease-note");
  if (form && note) {
    var lease = parseInt(form.getAttribute("data-lease-seconds"), 10);
    if (lease >= 0) {
      setTimeout(function () { note.hidden = false; }, lease * 1000);
    }
  }
  var count = document.getElementById("seconds");
  if (count) {
    var left = parseInt(count.textContent, 10);
    var tick = setInterval(function () {
      left -= 1;
      if (left <= 0) { clearInterval(tick); left = 0; }
      count.textContent = String(left);
    }, 1000);
  }
})();
