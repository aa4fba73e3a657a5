"""Where a form sends the player once it is done: its `next`, if that is a page of this site.

Every view that follows a `next` asks here, and answers with `back_to` (a plain redirect to a URL).
Django's `redirect(text)` would take a `next` with no "/" or "." ("x", "home") for a URL name and try
to reverse it: a 500 after the change was made, or a quiet jump to that named page.

A path is given back as a URI (`iri_to_uri`: "/%E6%97%A5", never "/日"), so it can stand in a `Location`
header or a WSGI environ as it is; one holding a control character (a CR or LF, a NUL, a vertical tab: what
no header may carry, and no page of ours has in its address) is no page of ours.
"""

import unicodedata

from django.http import HttpRequest, HttpResponseRedirect
from django.utils.encoding import iri_to_uri
from django.utils.http import url_has_allowed_host_and_scheme

LONGEST = 2000
"""Characters of a `next` followed; none of our pages has an address anywhere near this long."""


def local_path(target: str, request: HttpRequest) -> str:
    """`target` if it is a path on this site ("/matches/7/?step=3"), as a URI (ASCII only), else ""."""
    if not target.startswith("/") or target.startswith(("//", "/\\")) or len(target) > LONGEST:
        return ""
    if any(unicodedata.category(character) == "Cc" for character in target):
        return ""
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return ""
    return iri_to_uri(target)


def next_page(request: HttpRequest, fallback: str) -> str:
    """The form's `next` (posted, else in the query string) if it is a page of ours; else `fallback`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    return local_path(target, request) or fallback


def back_to(request: HttpRequest, fallback: str) -> HttpResponseRedirect:
    """The redirect to the form's `next`, or to `fallback` (a URL, never a URL name)."""
    return HttpResponseRedirect(next_page(request, fallback))
