// The phone at the table: installs the service worker (tracker/app_shell.py), keeps the screen awake
// during a match, and never loses a tap on a flaky connection. A form whose htmx request fails or
// times out says so inside the form, keeps what was entered and, if it carries its step number
// (seq), sends itself again when the connection is back: the server refuses a second copy with a
// 409 and the fresh state, so a retry can never count twice.
(() => {
  const say = document.currentScript.dataset;

  if ("serviceWorker" in navigator && say.worker) {
    // No worker (a private window, an old browser): the app works as before, only not offline.
    addEventListener("load", () => navigator.serviceWorker.register(say.worker).catch(() => {}));
  }
  // The offline page, standing in for the page that was wanted, asks the server now and then (at
  // once when the phone says it is back online) and shows that page as soon as the server answers.
  const offline = document.querySelector("[data-offline-page]");
  if (offline && location.pathname !== offline.dataset.offlinePage) {
    // It was cached with the theme of that moment; take the one the phone has now.
    const theme = document.cookie.match(/(?:^|; )tk_theme=(light|dark)(?:;|$)/);
    if (theme) document.documentElement.dataset.theme = theme[1]; else delete document.documentElement.dataset.theme;
    let wait = 1000;
    const probe = () => {
      clearTimeout(offline.tkTimer);
      if (!navigator.onLine) return;
      fetch(offline.dataset.probe, { cache: "no-store" }).then((response) => {
        if (response.status < 500) location.reload(); else throw response.status;
      }).catch(() => { offline.tkTimer = setTimeout(probe, wait = Math.min(wait * 2, 30000)); });
    };
    addEventListener("online", () => { wait = 1000; probe(); });
    probe();
  }

  // --- the screen stays awake while a match is under way and its page is shown ---
  let awake = null; // a promise of the wake lock while we hold it or ask for it
  function keepAwake() {
    if (!navigator.wakeLock) return;
    const match = document.querySelector("[data-live-url]");
    if (match && !match.hasAttribute("data-live-stop") && document.visibilityState === "visible") {
      if (awake) return;
      const asked = awake = navigator.wakeLock.request("screen").then((lock) => {
        lock.addEventListener("release", () => { if (awake === asked) awake = null; });
        return lock;
      }, () => { if (awake === asked) awake = null; }); // refused (say, battery saver): the screen may dim
    } else if (awake) {
      awake.then((lock) => lock && lock.release());
      awake = null;
    }
  }
  keepAwake();
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake); // the match may have just ended
  addEventListener("pagehide", () => { if (awake) awake.then((lock) => lock && lock.release()); awake = null; });

  // --- a failed action is kept and sent again ---
  const WAITS = [1000, 2000, 4000, 8000, 15000, 30000]; // between tries while the phone says it is online
  document.addEventListener("submit", (event) => { event.target.tkSubmitter = event.submitter; }, true);

  function note(form, text) {
    let line = form.querySelector(".net-note");
    if (!line) {
      line = document.createElement("p");
      line.className = "net-note";
      line.setAttribute("role", "alert"); // read out at once: the tap did not go through
      form.append(line);
    }
    line.textContent = text;
  }

  function resend(form) {
    clearTimeout(form.tkTimer);
    if (!form.isConnected || !form.hasAttribute("data-retry-pending")) return;
    form.tkTries = (form.tkTries || 0) + 1;
    note(form, say.sending);
    // Clicking the same button again sends its name and value too, as the first tap did.
    const button = form.tkSubmitter;
    if (button && button.isConnected && button.form === form) button.click(); else form.requestSubmit();
  }

  function schedule(form) {
    clearTimeout(form.tkTimer);
    if (!navigator.onLine) return; // the online event sends it
    form.tkTimer = setTimeout(() => resend(form), WAITS[Math.min(form.tkTries || 0, WAITS.length - 1)]);
  }

  function failed(event) {
    const form = event.detail.elt.closest("form");
    if (!form || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (event.type === "htmx:responseError" && ![502, 503, 504].includes(event.detail.xhr.status)) return;
    if (!form.querySelector("[name=seq]")) { note(form, say.manual); return; }
    form.setAttribute("data-retry-pending", ""); // live.js waits for it before catching up
    note(form, say.waiting);
    schedule(form);
  }
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach((name) => document.addEventListener(name, failed));
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt.closest("form");
    if (form && event.detail.xhr.status && ![502, 503, 504].includes(event.detail.xhr.status)) {
      form.removeAttribute("data-retry-pending"); // answered: applied, or refused with the fresh state
      form.tkTries = 0;
    }
  });
  addEventListener("online", () => {
    document.querySelectorAll("form[data-retry-pending]").forEach((form) => { form.tkTries = 0; resend(form); });
  });
})();
