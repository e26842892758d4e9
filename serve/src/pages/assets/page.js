// Keyboard shortcuts for the buttons that carry data-key (a space-separated
// list of KeyboardEvent.key values), and one submission per page: a second
// press while the first answer is on its way does nothing.
(function () {
  "use strict";
  var sent = false;
  document.addEventListener("submit", function (e) {
    if (sent) { e.preventDefault(); return; }
    sent = true;
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
})();
