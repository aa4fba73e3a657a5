"""A form's address opened as a page leads to the nearest page above it, not to a blank screen.

A form sent without JavaScript that is refused comes back drawn at the form's own address, so that what was typed
stays (tracker/matches/views.py `_refused`, the catalog's and the tournaments' forms alike). A phone that opens that
address again later (its tab restored after the screen was off, history, a bookmark) asks it with GET, which the
form's view does not take: Django answers 405 with no body, which a phone shows as a blank or an error screen. Such
a GET is sent on to the nearest address above it that is a page ("/tournaments/5/pair/" to "/tournaments/5/"), with
a word on why; nothing is changed, and the page it lands on checks who may see it as always.
"""

from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from tracker.either_mode import EitherMode


def nearest_page(path: str) -> str:
    """The nearest address above `path` that the URL configuration knows ("/" at the top). Should it take only
    forms too, its GET comes back here and goes one further up."""
    parts = [part for part in path.split("/") if part]
    while parts:
        parts.pop()
        above = "/" + "".join(f"{part}/" for part in parts)
        try:
            resolve(above)
        except Resolver404:
            continue
        return above
    return "/"


class FormAddressMiddleware(EitherMode):
    def leave(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.status_code != 405 or request.method != "GET" or getattr(request, "htmx", False):
            return response
        messages.warning(request, _("That address takes a form sent from its page, so here is the page; nothing was "
                                 "changed."))
        return HttpResponseRedirect(request.META.get("SCRIPT_NAME", "") + nearest_page(request.path_info))
