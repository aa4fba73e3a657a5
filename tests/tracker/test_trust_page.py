"""/trust/: how a phone trusts the table's HTTPS authority (`serve --https`), over plain HTTP too."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PEM = b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"


def test_without_https_the_page_says_how_to_start_it(client, settings):
    settings.CA_CERTIFICATE = ""
    response = client.get(reverse("trust_page"))
    assert response.status_code == 404
    assert b"serve --https" in response.content
    assert client.get(reverse("trust_certificate")).status_code == 404


def test_with_https_a_phone_gets_the_steps_a_qr_code_and_the_certificate(client, settings, tmp_path):
    root = tmp_path / "root.crt"
    root.write_bytes(PEM)
    settings.CA_CERTIFICATE, settings.HTTPS, settings.SECURE_SSL_REDIRECT = str(root), True, True
    settings.TRUST_URL, settings.HTTPS_URL = "http://10.0.0.5:8080/trust/", "https://10.0.0.5:8443/"
    page = client.get(reverse("trust_page"))  # plain HTTP: not redirected (SECURE_REDIRECT_EXEMPT)
    assert page.status_code == 200
    assert b"<svg" in page.content and b'href="https://10.0.0.5:8443/"' in page.content
    certificate = client.get(reverse("trust_certificate"))
    assert certificate.status_code == 200
    assert certificate["Content-Type"] == "application/x-x509-ca-cert"
    assert certificate.content == PEM
    assert client.get(reverse("home")).status_code == 301  # everything else goes to HTTPS


def test_the_settings_page_links_it(client):
    assert reverse("trust_page").encode() in client.get(reverse("settings")).content
