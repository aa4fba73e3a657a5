// The offline page, standing in for the page that was wanted (the service worker serves it from its
// cache): it takes the phone's theme of now, and shows the wanted page as soon as the server answers.
(() => {
  const off = document.querySelector("[data-offline-page]");
  if (location.pathname === off.dataset.offlinePage) return; // opened as itself: nothing to stand in for
  const theme = document.cookie.match(/(?:^|; )tk_theme=(light|dark)(;|$)/);
  if (theme) document.documentElement.dataset.theme = theme[1]; else delete document.documentElement.dataset.theme;
  let wait = 1000;
  const probe = () => {
    clearTimeout(off.timer);
    if (navigator.onLine) fetch(off.dataset.probe, { cache: "no-store" }).then((response) => {
      if (response.status < 500) location.reload(); else throw response.status;
    }).catch(() => { off.timer = setTimeout(probe, wait = Math.min(wait * 2, 30000)); });
  };
  addEventListener("online", () => { wait = 1000; probe(); });
  probe();
})();
