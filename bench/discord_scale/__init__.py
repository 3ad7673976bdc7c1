"""``python -m bench.discord_scale``: Dragon Tavern at internet scale, by simulation (issue 25).

One real bot process talks over real HTTP and a real WebSocket to the loopback fake Discord of
the wire tests (tests/wire/fake_discord.py), which enforces Discord's documented rate limits
(tests/wire/ratelimits.py). See bench/README.md ("Discord's request budget") for the modes and
today's figures.
"""
