{% load i18n %}// Tablekeeper's service worker, served at the site's root by tracker/web/views.py.
// Static files have content-hashed names, so they come from the cache. Pages always come from the
// network (a match page from a cache would be stale), and only when the network fails does the
// offline page stand in. POSTs, the live poll, htmx partials and exports are never touched.
"use strict";
const CACHE = "tablekeeper-{{ version }}";
const OFFLINE = "{{ offline_url|escapejs }}";
const STATIC = "{{ static_url|escapejs }}";
const PRECACHE = {{ precache|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll([...PRECACHE, OFFLINE]))
    .then(() => self.skipWaiting()));
});

// A new version takes over at once and drops the caches of the versions before it.
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("tablekeeper-") && name !== CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

function offlinePage() {
  return caches.match(OFFLINE).then((page) => page || new Response(
    "{% translate 'You are offline and Tablekeeper cannot be reached. Reload when the connection is back.'|escapejs %}",
    { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } }));
}

// The offline page speaks the language the pages do: after a switch of language, it is fetched again.
function offlinePageInStep(response) {
  const language = response.headers.get("Content-Language");
  return caches.open(CACHE).then((cache) => cache.match(OFFLINE).then((page) => {
    if (language && (!page || page.headers.get("Content-Language") !== language)) return cache.add(OFFLINE);
  })).catch(() => {});
}

function cacheFirst(request) {
  return caches.match(request).then((hit) => hit || fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy)).catch(() => {}); // full: fetched next time
    }
    return response;
  }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => {
      event.waitUntil(offlinePageInStep(response));
      return response;
    }, offlinePage));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(cacheFirst(request));
  }
});
