"""`serve`: check the configuration, prepare the database and the files, then run the stack.

tracker/scripts/serve sets up the venv and runs this; gunicorn (tracker/web/server.py) replaces this
process, so signals sent to it (SIGHUP: graceful restart, SIGTERM: stop) reach gunicorn.
"""

import io
import os
import secrets
import socket
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from rules.fields import typed_number
from tracker import backups
from tracker.web import server, static_collection, translations

KEY_FILE = Path(settings.BASE_DIR) / "var" / "secret-key"


def parse_address(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    number = typed_number(port, 5)
    if not host or number is None or number > 65535:
        raise CommandError(f"ADDRESS must be host:port (127.0.0.1:8000, 0.0.0.0:8000), not {address!r}")
    return host.strip("[]"), number


def check_bindable(host: str, port: int) -> None:
    """Bind once before anything else happens, so a port in use is one line, not gunicorn's retries."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise CommandError(f"ADDRESS {host}:{port} cannot be used: {error.strerror}") from None


def secret_key() -> str:
    """SECRET_KEY from the environment, else the one kept in var/ (made on the first start: a store
    laptop needs no set-up, and sessions survive a restart). A weak key is refused."""
    key = os.environ.get("SECRET_KEY", "")
    if not key:
        if not KEY_FILE.exists():
            KEY_FILE.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(KEY_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as kept:
                kept.write(secrets.token_urlsafe(50))
        key = KEY_FILE.read_text().strip()
    if len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure"):
        raise CommandError("SECRET_KEY is too weak: use 50 or more random characters "
                           "(or unset it, and serve keeps one in var/secret-key)")
    return key


def allowed_hosts(host: str) -> str:
    if os.environ.get("ALLOWED_HOSTS"):
        return os.environ["ALLOWED_HOSTS"]
    # Listening on every interface: the other phones use this machine's address, whatever it is.
    return "*" if host in ("0.0.0.0", "::") else f"localhost,127.0.0.1,[::1],{host}"


def lan_address() -> str:
    """This machine's address on the local network: the one a UDP socket would send from (connecting a
    UDP socket sends nothing); loopback when there is no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def port_setting(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    if not value:
        return default
    number = typed_number(value, 5)
    if number is None or number > 65535:
        raise CommandError(f"{name} must be a port number, not {value!r}")
    return number


def https_in_front(app_address: str) -> dict[str, str]:
    """Write Caddy's configuration for the table (tracker/web/server.py starts Caddy with gunicorn) and
    return the app's environment behind it."""
    host, port = parse_address(app_address)
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise CommandError("with --https the app listens on loopback only (ADDRESS=127.0.0.1:PORT); "
                           "Caddy faces the network")
    https_port, http_port = port_setting("HTTPS_PORT", 8443), port_setting("HTTP_PORT", 8080)
    # The names phones use: TABLE_HOST (comma-separated), else this machine's address and its .local name.
    names = [name.strip() for name in os.environ.get("TABLE_HOST", "").split(",") if name.strip()] or \
        [lan_address(), f"{socket.gethostname()}.local"]
    bind = os.environ.get("HTTPS_BIND", "0.0.0.0")
    for probe_port in (https_port, http_port):
        check_bindable(bind, probe_port)
    folder = Path(os.environ.get("CADDY_DIR") or Path(settings.BASE_DIR) / "var" / "caddy")
    folder.mkdir(parents=True, exist_ok=True)
    storage = str(folder / "data")
    config = folder / "Caddyfile"
    # This computer's own names too: the owner trying https://localhost:8443/ on it got a failed handshake.
    sites = [*names, *(name for name in ("localhost", "127.0.0.1") if name not in names)]
    config.write_text(server.caddyfile(app=f"{host}:{port}", names=sites, bind=bind, https_port=https_port,
                                       http_port=http_port, storage=storage))
    first = names[0]
    return {
        "TABLEKEEPER_CADDYFILE": str(config), "CA_CERTIFICATE": server.root_certificate(storage),
        "HTTPS_URL": f"https://{first}:{https_port}/", "TRUST_URL": f"http://{first}:{http_port}/trust/",
        "HTTPS": "true", "BEHIND_PROXY": "true", "ALLOWED_HOSTS": ",".join([*names, "localhost", "127.0.0.1"]),
        # Caddy is the one proxy: the address it forwards is the phone's. Without it every phone would
        # look like this machine (per-address limits, and the table's matches only it may play).
        "TRUSTED_PROXY_COUNT": "1",
    }


def pending_migrations(alias: str = DEFAULT_DB_ALIAS) -> tuple[bool, bool]:
    """(the database already holds data, migrations are waiting to be applied to it)."""
    connection = connections[alias]
    executor = MigrationExecutor(connection)
    existing = executor.recorder.has_table() and bool(executor.recorder.applied_migrations())
    return existing, bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))


class Command(BaseCommand):
    help = "Run Tablekeeper's production stack (gunicorn + uvicorn workers) on ADDRESS, with demo data."
    requires_system_checks: list = []  # run below, once the settings of our own are known to be right

    def add_arguments(self, parser):
        parser.add_argument("--empty", action="store_true", help="start without demo data")
        parser.add_argument("--https", action="store_true",
                            help="Caddy in front: HTTPS for every phone on the network (docs/club-night.md)")
        parser.add_argument("--prepare-only", action="store_true",
                            help="check and prepare everything, then exit without serving")

    def handle(self, *args, empty=False, https=False, prepare_only=False, **options):
        address = os.environ.get("ADDRESS", "127.0.0.1:8000")
        host, port = parse_address(address)
        check_bindable(host, port)
        try:
            workers = server.worker_count(settings.DATABASES["default"]["ENGINE"])
        except ValueError as error:
            raise CommandError(str(error)) from None
        environment = {"SECRET_KEY": secret_key(), "ALLOWED_HOSTS": allowed_hosts(host), "DEBUG": "false",
                       # gunicorn imports the app from this folder wherever serve was started (it is not installed).
                       "PYTHONPATH": os.pathsep.join(filter(None, [str(settings.BASE_DIR), os.environ.get("PYTHONPATH")]))}
        if https:
            environment |= https_in_front(address)
        self.check()

        try:
            translations.compile_catalogues()
        except translations.MissingGettext as error:
            self.stderr.write(str(error))
        existing, pending = pending_migrations()
        if existing and pending:
            self.stdout.write(f"Backed up before migrating: {backups.backup()}")
        call_command("migrate", interactive=False, verbosity=0)
        if not empty:
            os.environ.setdefault("DEMO_PASSWORD", "tablekeeper-demo")
            call_command("demo", verbosity=0, stdout=io.StringIO())
            self.stdout.write("Demo club accounts: ana (organiser), ben, chloe, dev; "
                              f"password {os.environ['DEMO_PASSWORD']}")
        static_collection.collect()  # only when a file, package or setting it follows from changed
        if prepare_only:
            return
        if https:  # the app's own address answers only Caddy, over plain HTTP: it would redirect to nowhere
            self.stdout.write(f"Tablekeeper, for this computer and the phones at the table: {environment['HTTPS_URL']} "
                              f"({workers} worker{'s' * (workers > 1)}; first trust its certificate: "
                              f"{environment['TRUST_URL']})")
        else:
            self.stdout.write(f"Tablekeeper: http://{address}/ ({workers} worker{'s' * (workers > 1)})")
        sys.stdout.flush()
        connections.close_all()
        backups.serving()  # `restore` refuses while this server runs: the lock goes with the exec, to every worker
        command = server.command(address, workers)
        os.execve(command[0], command, {**os.environ, **environment})
