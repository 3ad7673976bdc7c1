-- Games whose saved data cannot be decoded (corrupt JSON, or a state the engine cannot
-- restore). They are set aside: skipped by listings and timers, refused with a clear message
-- on a click, and announced once in their channel (announced_at). Every other game works.
CREATE TABLE damaged_games (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    reason       TEXT    NOT NULL,
    found_at     REAL    NOT NULL,
    announced_at REAL                                 -- NULL until the channel was told
);
