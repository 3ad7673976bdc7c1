-- Telling players it is their turn, and their one private message per game (issue 14).

-- How each member wants to be told they must act (/game notify): a channel message that
-- mentions them, a DM, or nothing. A member without a row gets the default, 'channel'.
CREATE TABLE member_prefs (
    user_id INTEGER PRIMARY KEY,
    notify  TEXT    NOT NULL CHECK (notify IN ('channel', 'dm', 'off'))
);

-- The turn pings of a game still standing (a channel message, or a DM for members who chose
-- 'dm'). A new ping deletes the ones before it, so at most one per game is alive.
CREATE TABLE pings (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, message_id)
);

-- Each seated player's one private "hand" message per game (a DM), edited in place as things
-- change; a new one replaces it only when the player must act privately. prompt_key says what
-- it showed (a digest of the seat's private view and choices), so an unchanged hand is not
-- touched and a new decision is told apart from an update.
CREATE TABLE hands (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    prompt_key TEXT    NOT NULL,
    asked      INTEGER NOT NULL DEFAULT 0,     -- 1: this message was sent as a call to act
    PRIMARY KEY (game_id, seat)
);
