"""``python -m tests.wire.launch_bot``: the real bot (``bot.main()``) against a loopback fake Discord.

The product never imports ``tests/``: this launcher points the unmodified discord.py client at
``$DT_FAKE_DISCORD_URL`` (loopback only, see patch_client) and then runs the bot exactly as
``python bot.py`` would. Run it with the repository on ``PYTHONPATH``.
"""

from __future__ import annotations

import sys

from tests.wire.patch_client import ENV_VAR, point_discord_from_env


def main() -> int:
    if point_discord_from_env() is None:
        print(f"launch_bot: {ENV_VAR} is not set (this launcher only talks to a fake Discord)", file=sys.stderr)
        return 2
    import bot  # after the patch, so nothing can reach the real Discord first

    return bot.main()


if __name__ == "__main__":
    sys.exit(main())
