// Replay: arrow keys and swipes press the step links, so without this file the links still work.
(function () {
  function press(key) {
    var link = document.querySelector('[data-replay] a[data-key="' + key + '"]');
    if (!link) return;
    // A key pressed just after a swap can beat htmx to the new links; without this the click
    // would be a full page load instead of an in-place step.
    if (window.htmx) window.htmx.process(link);
    link.click();
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
    if (["ArrowLeft", "ArrowRight", "Home", "End"].indexOf(event.key) >= 0) {
      event.preventDefault();
      press(event.key);
    } else if (event.key === "Enter" && event.target.matches && event.target.matches("[data-replay] a[data-key]")) {
      // Enter on a step link, through htmx as a key does: a link not yet processed would load the whole page.
      event.preventDefault();
      press(event.target.getAttribute("data-key"));
    }
  });
  var startX = null, startY = null;
  document.addEventListener("touchstart", function (event) {
    startX = event.touches[0].clientX;
    startY = event.touches[0].clientY;
  }, { passive: true });
  document.addEventListener("touchend", function (event) {
    if (startX === null) return;
    var dx = event.changedTouches[0].clientX - startX, dy = event.changedTouches[0].clientY - startY;
    startX = null;
    // A clear horizontal swipe only, so scrolling the page never steps the replay.
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) press(dx < 0 ? "ArrowRight" : "ArrowLeft");
  }, { passive: true });
})();
