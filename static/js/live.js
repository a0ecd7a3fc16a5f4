// The live projector's keyboard shortcuts (N: the next step, R: show the answer) and
// the timer's countdown. The page works without it: every step is a button.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    var key = (event.key || "").toLowerCase();
    var button = document.querySelector('#stage button[data-key="' + key + '"]');
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });
  function tick() {
    document.querySelectorAll(".live-timer[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = "(" + left + " s)";
    });
  }
  setInterval(tick, 500);
})();
