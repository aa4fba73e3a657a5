"""HTTPS for the phones at the table (`serve --https`): Caddy with its own authority in front of the app.

On loopback only: Caddy's sites are 127.0.0.1 on free ports. Chromium trusts the authority as a
phone does once it installed the certificate from /trust/ (here through the NSS database Chromium
reads on Linux, made with certutil), and then the app is what it is meant to be: installable with
no installability error, its service worker in control, its offline page shown when the server stops.
"""

import re
import socket
import ssl
import subprocess

from playwright.sync_api import Browser, expect

from tests.browser.phone import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.serving.stack import Stack, free_port


def trusting_home(folder, root_certificate) -> dict:
    """A HOME whose NSS database trusts `root_certificate` to identify web sites."""
    database = folder / ".pki" / "nssdb"
    database.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "--empty-password", "-d", f"sql:{database}"], check=True)
    subprocess.run(["certutil", "-A", "-n", "Tablekeeper table", "-t", "C,,", "-i", str(root_certificate),
                    "-d", f"sql:{database}"], check=True)
    return {"HOME": str(folder)}


def test_a_phone_that_trusts_the_table_gets_the_whole_app_over_https(browser: Browser, tmp_path, screenshot_dir):
    https_port, http_port = free_port(), free_port()
    stack = Stack(tmp_path, "--https", "--empty", TABLE_HOST="127.0.0.1", HTTPS_BIND="127.0.0.1",
                  HTTPS_PORT=str(https_port), HTTP_PORT=str(http_port))
    try:
        # Plain HTTP offers the trust page and the certificate, and sends everything else to HTTPS.
        trust = stack.get("/trust/", port=http_port)
        assert trust.status == 200 and b"tablekeeper-table.crt" in trust.body
        # ...drawn with its stylesheets and scripts: a phone that does not trust the authority yet cannot fetch
        # them over HTTPS (it was shown a bare page).
        for linked in re.findall(rb'(?:href|src)="(/static/[^"]+)"', trust.body):
            assert stack.get(linked.decode(), port=http_port).status == 200, linked
        certificate = stack.get("/trust/tablekeeper-table.crt", port=http_port)
        assert certificate.getheader("Content-Type") == "application/x-x509-ca-cert"
        assert certificate.body.startswith(b"-----BEGIN CERTIFICATE-----")
        assert stack.get("/", port=http_port).getheader("Location") == f"https://127.0.0.1:{https_port}/"
        root = tmp_path / "table.crt"
        root.write_bytes(certificate.body)
        trusting = ssl.create_default_context(cafile=root)
        assert stack.get("/healthz", port=https_port, context=trusting).status == 200
        # The computer serving it answers by its own name as well (the store owner trying it there).
        with socket.create_connection(("127.0.0.1", https_port), timeout=20) as raw, \
                trusting.wrap_socket(raw, server_hostname="localhost") as tls:
            tls.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            assert tls.recv(64).startswith(b"HTTP/1.1 200"), "no certificate for localhost"

        # A profile of its own, as a phone's browser has: an incognito context is never installable.
        context = browser.browser_type.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            env=trusting_home(tmp_path / "phone", root), base_url=f"https://127.0.0.1:{https_port}", **PHONE)
        try:
            page = context.new_page()
            home = page.goto("/")
            assert page.evaluate("window.isSecureContext")
            # Over HTTPS the phone asks for Brotli, and reads the app's pages with their random padding block.
            assert home.header_value("content-encoding") == "br"
            expect(page.get_by_role("heading", level=1)).to_be_visible()
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
            errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
            assert errors == []
            page.goto("/trust/")
            page.screenshot(path=screenshot_dir / "https-trust-page.png", full_page=True, caret="initial")

            assert stack.stop() == 0  # the server and Caddy stop: the phone shows its offline page
            page.goto("/matches/")
            expect(page.get_by_role("heading", level=1)).to_have_text("No connection")
        finally:
            context.close()
    finally:
        stack.stop()
