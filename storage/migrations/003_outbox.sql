-- What must be announced after a saved change (the board, Recent lines, pings, private
-- prompts), written in the same transaction as the change, so a crash between the save and the
-- announcement loses nothing: the bot delivers pending rows after the commit and again at
-- start-up, and deletes a row once it has been delivered.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,              -- the game's version once the change was saved
    events     TEXT    NOT NULL,              -- JSON list of engine events (public and private)
    progress   TEXT    NOT NULL DEFAULT '{}', -- JSON: which steps of the delivery are done
    created_at REAL    NOT NULL
);
CREATE INDEX outbox_by_game ON outbox (game_id, id);
