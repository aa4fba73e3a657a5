// Live updates: an element with data-live-url asks every 2 seconds whether the match changed
// (a 204 with no body when not). On a change it reloads its own part through htmx, or the page.
// It pauses while the page is hidden or the phone is offline, or while a tap waits to be sent again
// (table.js: its answer brings the fresh state), catches up when back, and stops when the match has
// ended (data-live-stop).
(function () {
  var PERIOD = 2000;
  function tick() {
    var el = document.querySelector("[data-live-url]");
    if (!el || el.hasAttribute("data-live-stop") || document.visibilityState !== "visible" || !navigator.onLine ||
        document.querySelector("[data-retry-pending], .htmx-request")) return;
    var asked = el.getAttribute("data-live-version");
    var url = el.getAttribute("data-live-url") + "?v=" + encodeURIComponent(asked);
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } }).then(function (response) {
      // Already fresh (the player's own change): a reload would wipe their new picks.
      var now = document.querySelector("[data-live-url]");
      if ((now && now.getAttribute("data-live-version") !== asked) || document.querySelector(".htmx-request")) return;
      if (response.status === 403 || response.status === 404 || response.status === 410) {
        // Access was revoked or the match is gone: show what the server says now, and stop asking.
        el.setAttribute("data-live-stop", "");
        window.location.reload();
        return;
      }
      if (response.status !== 200) return;
      var target = el.getAttribute("data-live-target");
      if (target && window.htmx) {
        window.htmx.ajax("GET", window.location.pathname, { target: target, swap: "outerHTML" });
      } else {
        window.location.reload();
      }
    }).catch(function () { /* offline for a moment: the next tick tries again */ });
  }
  setInterval(tick, PERIOD);
  document.addEventListener("visibilitychange", tick);
  window.addEventListener("online", tick);
})();
