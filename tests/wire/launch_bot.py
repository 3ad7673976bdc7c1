"""``python -m tests.wire.launch_bot``: the real bot (``bot.main()``) against a loopback fake Discord.

The product never imports ``tests/``: this launcher points the unmodified discord.py client at
``$DT_FAKE_DISCORD_URL`` (loopback only, see patch_client) and then runs the bot exactly as
``python bot.py`` would. Run it with the repository on ``PYTHONPATH``.

With ``$DT_PROFILE`` set to a path prefix the bot runs under cProfile (the scale bench's
``--profile``): each SIGUSR1 writes what was profiled since the previous one to
``<prefix>.<n>.prof`` and starts afresh, so a bench can profile exactly one measuring window.
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time
from types import FrameType

from tests.wire.patch_client import ENV_VAR, point_discord_from_env

PROFILE_VAR = "DT_PROFILE"


class WindowProfiler:
    """cProfile over the whole process, written out and restarted on SIGUSR1."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.dumps = 0
        self.profile = self._new()

    @staticmethod
    def _new() -> cProfile.Profile:
        # CPU time, not wall time: on a shared machine wall time is mostly other processes'
        # turns. Process-wide, so the SQLite thread's work shows where the main thread waits for it.
        return cProfile.Profile(time.process_time)

    def start(self) -> None:
        signal.signal(signal.SIGUSR1, self._dump)
        # bot.run() ends cleanly on KeyboardInterrupt; SIGTERM would kill before the last dump.
        signal.signal(signal.SIGTERM, self._interrupt)
        self.profile.enable()

    def _dump(self, _signum: int = 0, _frame: FrameType | None = None) -> None:
        self.profile.disable()
        # A SIGTERM right after the bench's last SIGUSR1 must not cut the file short.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        try:
            self.profile.dump_stats(f"{self.prefix}.{self.dumps}.prof")
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        self.dumps += 1
        self.profile = self._new()
        self.profile.enable()

    @staticmethod
    def _interrupt(_signum: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    def stop(self) -> None:
        self.profile.disable()
        self.profile.dump_stats(f"{self.prefix}.last.prof")


def main() -> int:
    if point_discord_from_env() is None:
        print(
            f"launch_bot: {ENV_VAR} is not set (this launcher only talks to a fake Discord)", file=sys.stderr
        )
        return 2
    import bot  # after the patch, so nothing can reach the real Discord first

    prefix = os.environ.get(PROFILE_VAR)
    if not prefix:
        return bot.main()
    profiler = WindowProfiler(prefix)
    profiler.start()
    try:
        return bot.main()
    finally:
        profiler.stop()


if __name__ == "__main__":
    sys.exit(main())
