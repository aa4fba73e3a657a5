// Live updates. The match page holds one stream of server-sent events (#live's data-stream, the browser's
// own EventSource; tracker/matches/live.py): each event names the match's new version and what happened,
// and the page fetches its own #match part through htmx and says what happened in the outcome region. An
// event for a version the page already shows (the player's own tap) changes nothing, so nothing is shown
// twice. The browser reconnects a dropped stream by itself, sending the last version it heard
// (Last-Event-ID); htmx's SSE extension would only have wrapped these few lines in 1.2 KB more to load.
//
// Only while the stream is not open, or has been silent for longer than STALL (it beats every 15 s), does
// the page ask every 2 seconds instead (a 204 with no body when nothing changed), and #live says so. A
// silent stream is closed and opened again, and one the browser gave up on (an error answer, a proxy's
// 502) is tried again after REOPEN; its URL carries the version the page shows, so the server sends at once
// what was missed while away.
//
// Nothing is fetched while the page is hidden or the phone offline, or while a tap waits to be sent again
// (table.js: its answer brings the fresh state); the page catches up when back. A finished match neither
// streams nor polls (data-live-stop).
(function () {
  var PERIOD = 2000, STALL = 35000, REOPEN = 10000;
  var opened = 0, heard = 0, wanted = 0, said = "", source = null;

  function match() { return document.querySelector("[data-live-url]"); }
  function shown() { var el = match(); return el ? Number(el.getAttribute("data-live-version")) : 0; }
  function streaming() { return source && source.readyState === 1 && Date.now() - heard < STALL; }
  function idle() {
    var el = match();
    return el && !el.hasAttribute("data-live-stop") && !(document.visibilityState !== "visible") && navigator.onLine &&
      !document.querySelector("[data-retry-pending], .htmx-request");
  }

  function status() {
    var live = document.getElementById("live");
    if (!live) return;
    var line = live.querySelector(".live-status"), on = streaming();
    var text = on ? live.getAttribute("data-live-on") : live.getAttribute("data-live-off");
    if (line.textContent !== text) { line.textContent = text; line.setAttribute("data-live", on ? "on" : "off"); }
  }

  // The refreshed part already says it (the page's news is the sentence the stream pushed): left as the server
  // drew it. Otherwise (a change nobody at the table made, or an older box still showing) the box says it.
  function tell(text) {
    var region = document.getElementById("outcome");
    if (!region || !text || region.textContent.indexOf(text) !== -1) return;
    var box = document.createElement("div"), line = document.createElement("p"), mark = document.createElement("span");
    var tools = document.createElement("div");
    box.className = "outcome-box outcome-live";
    tools.className = "outcome-tools";  // the close link at the top right, as outcome.html places it
    box.appendChild(tools);
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = "↻ ";
    line.appendChild(mark);
    line.appendChild(document.createTextNode(text));
    box.appendChild(line);
    var close = document.createElement("a"), cross = document.createElement("span"), name = document.createElement("span");
    close.className = "outcome-close";
    close.href = window.location.pathname;
    close.setAttribute("data-dismiss", "");
    cross.setAttribute("aria-hidden", "true");
    cross.textContent = "✕";
    name.className = "sr-only";
    name.textContent = document.getElementById("live").getAttribute("data-close") || "Close";
    close.appendChild(cross);
    close.appendChild(name);
    tools.appendChild(close);
    region.replaceChildren(box);
  }

  // Fetch the fresh #match (or the page, without htmx), once the page may.
  function refresh() {
    if (!idle() || wanted <= shown()) return;
    var el = match(), target = el.getAttribute("data-live-target"), message = said;
    if (!target || !window.htmx) { window.location.reload(); return; }
    window.htmx.ajax("GET", window.location.pathname, { target: target, swap: "outerHTML" }).then(function () {
      if (shown() >= wanted && message === said) { tell(message); said = ""; }
      status();
    });
  }

  // The stream, from the version the page shows.
  function connect() {
    var live = document.getElementById("live"), url = live && live.getAttribute("data-stream"), el = match();
    if (!url || !el || el.hasAttribute("data-live-stop")) return;
    opened = Date.now();
    source = new EventSource(url.replace(/\?v=\d*/, "?v=" + shown()));
    source.onopen = function () { heard = Date.now(); status(); };
    source.onerror = status;
    source.addEventListener("beat", function () { heard = Date.now(); status(); });
    source.addEventListener("change", function (e) {
      heard = Date.now();
      var change = JSON.parse(e.data);
      if (change.version > wanted) { wanted = change.version; said = change.said; }
      refresh();
    });
    source.addEventListener("gone", function () { source.close(); window.location.reload(); });  // access revoked
  }
  // A refused fetch (access revoked, the match deleted): show what the server says now.
  document.addEventListener("htmx:responseError", function (e) {
    var code = e.detail.xhr && e.detail.xhr.status;
    if (code === 403 || code === 404 || code === 410) window.location.reload();
  });

  // A stream silent for too long: close it and open a new one. One the browser gave up on: again, now and then.
  function reopen() {
    if (!source || !idle()) return;
    var closed = source.readyState === 2;
    if (closed ? Date.now() - opened < REOPEN : Date.now() - Math.max(heard, opened) < STALL) return;
    source.close();
    connect();
  }

  // The poll: only while there is no working stream.
  function tick() {
    status();
    reopen();
    var el = match();
    if (el && el.hasAttribute("data-live-stop") && source) { source.close(); source = null; }
    if (!idle()) return;
    if (streaming()) { refresh(); return; }
    var asked = el.getAttribute("data-live-version");
    var url = el.getAttribute("data-live-url") + "?v=" + encodeURIComponent(asked);
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } }).then(function (response) {
      // Already fresh (the player's own change): a reload would wipe their new picks.
      var now = match();
      if ((now && now.getAttribute("data-live-version") !== asked) || document.querySelector(".htmx-request")) return;
      if (response.status === 403 || response.status === 404 || response.status === 410) {
        // Access was revoked or the match is gone: show what the server says now, and stop asking.
        el.setAttribute("data-live-stop", "");
        window.location.reload();
        return;
      }
      if (response.status !== 200) return;
      return response.json().then(function (change) { wanted = Math.max(wanted, change.version); refresh(); });
    }).catch(function () { /* offline for a moment: the next tick tries again */ });
  }
  connect();
  setInterval(tick, PERIOD);
  document.addEventListener("visibilitychange", tick);
  window.addEventListener("online", tick);
  document.addEventListener("htmx:afterSettle", status);
})();
