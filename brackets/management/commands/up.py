"""``manage.py up``: everything a newcomer needs to run the desk, in one command.

Migrates the embedded database, loads the QMA catalog, creates the organiser account on
first run (printing its random password once), and serves the app with uvicorn (an ASGI
server that also runs on Windows) on the LAN, printing the address and a QR code of it so
tablets can join.
"""

from __future__ import annotations

import socket
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from brackets.services.catalog import catalog_load_builtin
from brackets.services.tournaments import generated_password

ORGANISER_USERNAME = "organiser"


def lan_address() -> str:
    """The address other devices on the LAN use to reach this machine.

    Connecting a UDP socket sends nothing; it only asks the OS which interface would route
    to that address.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        address: str = probe.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


class Command(BaseCommand):
    help = "データベースを準備し、LAN上でアプリを起動します（Ctrl-Cで停止）。"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addr", default="0.0.0.0", help="listen address (default 0.0.0.0)")
        parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
        parser.add_argument(
            "--noinput", action="store_true", help="never prompt (for scripts and tests)"
        )
        parser.add_argument(
            "--no-serve", action="store_true", help="prepare the database, then exit"
        )
        # Several processes use the machine's other cores; for more than one, set
        # REDIS_URL so they share caches and sessions.
        parser.add_argument("--workers", type=int, default=1,
                            help="server processes sharing the port (default 1)")

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.REDIS_URL:
            import redis

            # Every request reads the cache: say so now rather than answer 500 to all.
            try:
                caches["default"].get("up:redis-answers")
            except redis.RedisError as error:
                raise CommandError(
                    f"REDIS_URL の Redis に接続できません（{settings.REDIS_URL}）: {error}"
                ) from error
        call_command("migrate", interactive=False, verbosity=0)
        loaded = catalog_load_builtin()
        for version in loaded:
            self.stdout.write(f"QMAカタログを読み込みました: {version.name}")
        self.ensure_organiser()
        if options["no_serve"]:
            return
        self.serve(options["addr"], options["port"], max(1, options["workers"]))

    def ensure_organiser(self) -> None:
        user_model = get_user_model()
        if user_model.objects.filter(is_superuser=True).exists():
            return
        password = generated_password(ORGANISER_USERNAME)
        user_model.objects.create_superuser(ORGANISER_USERNAME, "", password)
        banner = "=" * 60
        self.stdout.write(banner)
        self.stdout.write("主催者アカウントを作成しました（この表示は一度だけです）")
        self.stdout.write(f"  ユーザー名: {ORGANISER_USERNAME}")
        self.stdout.write(f"  パスワード: {password}")
        self.stdout.write("  変更: ログイン後「パスワード変更」、または")
        self.stdout.write(f"        python3 manage.py changepassword {ORGANISER_USERNAME}")
        self.stdout.write(banner)

    def serve(self, addr: str, port: int, workers: int = 1) -> None:
        import uvicorn
        from uvicorn.supervisors import Multiprocess

        host = lan_address() if addr in ("0.0.0.0", "") else addr
        url = f"http://{host}:{port}/"
        self.stdout.write(f"起動しました: {url}  （Ctrl-Cで停止）")
        if addr in ("0.0.0.0", ""):
            self.stdout.write("タブレットは同じWi-Fiで下のQRコードを読み取ってください。")
            self.print_qr(url)
        if settings.DEBUG:
            self.stdout.write("注意: DJANGO_DEBUG が有効です。")
        if workers > 1:
            self.stdout.write(f"サーバープロセス: {workers}")
        self.stdout.flush()
        config = uvicorn.Config(
            "kyushu.asgi:application",
            host=addr,
            port=port,
            # Django has no lifespan events; without this uvicorn logs that at every start.
            lifespan="off",
            log_level="warning",
            # Phones poll every few seconds over kept-alive connections; an idle one costs
            # a socket, no thread, so keep it across a few polls.
            timeout_keep_alive=20,
            # Ctrl-C: open scoreboard streams are cut after this (browsers reconnect to
            # the next start) instead of being waited for up to their ~40 s.
            timeout_graceful_shutdown=2,
            server_header=False,
        )
        try:
            if workers > 1:
                # uvicorn binds the port once and spawns the workers onto it; it stops
                # them all on Ctrl-C or SIGTERM.
                config.workers = workers
                sock = config.bind_socket()
                Multiprocess(config, sockets=[sock]).run()
            else:
                uvicorn.Server(config).run()
        except KeyboardInterrupt:
            pass  # uvicorn re-raises the Ctrl-C it handled once it has stopped
        self.stdout.write("停止しました。")

    def print_qr(self, url: str) -> None:
        import io

        import segno

        buffer = io.StringIO()
        segno.make(url, error="l").terminal(out=buffer, compact=True)
        self.stdout.write(buffer.getvalue())
