-- Ratings (issue 16): one openskill rating per player per game per server, the change each
-- finished game made, and the seats a game does not rate (a hint was taken).

-- When a game finished: ratings are replayed in this order by the rebuild. Games that finished
-- before this migration take their last update time, which was their finish.
ALTER TABLE games ADD COLUMN finished_at REAL;
UPDATE games SET finished_at = updated_at WHERE status = 'finished';
CREATE INDEX games_finished ON games (finished_at, id) WHERE status = 'finished';

-- player is 'u:<user id>' for a member and 'ai:<level>' for an AI level (one rated identity per
-- level, so the AI's strength shows on the leaderboard). rating is what players see: openskill's
-- ordinal (mu - 3 sigma) scaled, kept as a column so the leaderboard reads it from an index.
CREATE TABLE ratings (
    guild_id     INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    user_id      INTEGER,                 -- NULL for an AI level
    name         TEXT    NOT NULL,        -- the name shown at their latest rated game (no member cache needed)
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    rating       REAL    NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    draws        INTEGER NOT NULL,
    streak       INTEGER NOT NULL,        -- > 0: wins in a row, < 0: losses in a row
    best_streak  INTEGER NOT NULL,        -- most wins in a row
    last_game_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, kind, player)
);
-- The leaderboard: a page is an index range scan; a member's rank is a count over it.
CREATE INDEX ratings_leaderboard ON ratings (guild_id, kind, rating DESC, player);
CREATE INDEX ratings_by_player ON ratings (guild_id, player);

-- One row per rated participant per finished game: the profile chart and the history's
-- "+12" come from here, and a game can never be counted twice (the primary key).
CREATE TABLE rating_history (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id     INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    seat         TEXT    NOT NULL,
    rank         INTEGER NOT NULL,        -- 1 = first; shared by tied players and teammates
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    rating_before REAL   NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    rating       REAL    NOT NULL,
    finished_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, player, kind, finished_at);

-- Seats a game leaves unrated although the game is rated (reason: 'hint').
CREATE TABLE unrated_seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    TEXT    NOT NULL,
    reason  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- /game history: a member's latest finished games, newest first, from an index.
CREATE INDEX results_by_user_time ON results (guild_id, user_id, finished_at DESC);
