import asyncio, sys, traceback, collections
from bench import click_round_trips as c
names = collections.Counter()
orig = c.TripCounter._counted
def _counted(self, name, method):
    async def call(*a, **k):
        if self.counting:
            st = traceback.extract_stack(limit=12)
            db = [f.name for f in st if f.filename.endswith("storage/db.py")]
            caller = [f"{f.filename.split('/')[-1]}:{f.name}" for f in st if "/cogs/" in f.filename or "/sessions/" in f.filename]
            names[(db[0] if db else name, caller[-1] if caller else "?")] += 1
        return await method(*a, **k)
    return call
c.TripCounter._counted = _counted
r = asyncio.run(c.clicks_on(sys.argv[1], "farkle", 20))
tot = sum(v["clicks"] for k, v in r.items() if k != "by_call")
for k, v in names.most_common(): print(f"{v/tot:5.2f} {k}")
