-- Dragon Tavern schema, version 1.
CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,             -- JSON
    PRIMARY KEY (guild_id, key)
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    kind             TEXT    NOT NULL,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_user_id     INTEGER NOT NULL,
    status           TEXT    NOT NULL
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    options          TEXT    NOT NULL DEFAULT '{}',   -- JSON, as parsed by the game's OptionSpecs
    seed             INTEGER NOT NULL,
    state            TEXT,                            -- JSON engine state; NULL in the lobby
    version          INTEGER NOT NULL DEFAULT 0,      -- bumped by every save (optimistic lock)
    board_message_id INTEGER,
    result           TEXT,                            -- JSON engine Result when finished
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
-- At most one lobby or running game per channel.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE seats (
    game_id           INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat              TEXT    NOT NULL,               -- engine player id: p1, p2, ...
    position          INTEGER NOT NULL,
    user_id           INTEGER,                        -- NULL for an AI seat
    ai_level          TEXT,                           -- set when an AI plays this seat
    display_name      TEXT    NOT NULL,
    timeouts_in_a_row INTEGER NOT NULL DEFAULT 0,
    private_route     TEXT    NOT NULL DEFAULT 'unknown'
                      CHECK (private_route IN ('unknown', 'dm', 'ephemeral')),
    PRIMARY KEY (game_id, seat),
    CHECK (user_id IS NOT NULL OR ai_level IS NOT NULL)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

-- Append-only: every applied action in order, enough to replay the game from its seed.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    version    INTEGER NOT NULL,                    -- the game's version once this was applied
    seat       TEXT    NOT NULL,
    user_id    INTEGER,
    source     TEXT    NOT NULL CHECK (source IN ('player', 'ai', 'timeout', 'system')),
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE timers (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    purpose  TEXT    NOT NULL,
    deadline REAL    NOT NULL,
    PRIMARY KEY (game_id, purpose)
);

CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    place       INTEGER NOT NULL,
    score       REAL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw', 'resigned', 'abandoned')),
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX results_by_user ON results (guild_id, user_id);
