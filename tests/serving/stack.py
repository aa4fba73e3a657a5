"""`serve`'s stack started for a test: manage.py serve on free loopback ports, a database of its own."""

import http.client
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

from tests import static_cache

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Stack:
    """`manage.py serve` in a process group of its own; `stop()` sends SIGTERM as a service manager would."""

    def __init__(self, folder: Path, *args: str, **env: str):
        self.folder, self.port = folder, free_port()
        self.log = folder / "serve.log"
        environ = {key: value for key, value in os.environ.items()
                   if key not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL")}
        environ.update({"DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}", "ADDRESS": f"127.0.0.1:{self.port}",
                        "SECRET_KEY": "test-" + "0123456789abcdef" * 4, "DEMO_PASSWORD": "tablekeeper-demo",
                        "CADDY_DIR": str(folder / "caddy"), **static_cache.copy_for_serve(folder)})
        environ.update(env)
        self.environ = environ  # for a manage.py command beside it, on its database
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen([sys.executable, "manage.py", "serve", *args], cwd=ROOT, env=environ,
                                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.wait_for(lambda: self.get("/healthz").status < 500)  # with --https: a redirect to HTTPS

    def wait_for(self, ready, seconds: float = 90) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if ready():
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise AssertionError(f"serve stopped:\n{self.log.read_text()}")
            time.sleep(0.2)
        self.stop()
        raise AssertionError(f"serve did not answer in {seconds} s:\n{self.log.read_text()}")

    def get(self, path: str, headers: dict | None = None, *, port: int | None = None,
            context: ssl.SSLContext | None = None) -> http.client.HTTPResponse:
        connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=20) if context \
            else http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=20)
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        response.body = response.read()  # type: ignore[attr-defined]
        connection.close()
        return response

    def stop(self) -> int:
        """SIGTERM to the whole group; the exit status (0: a clean shutdown)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode
