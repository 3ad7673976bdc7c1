-- A board that moved (issue 25): when a change can no longer edit the board through a live
-- interaction, the board is posted again as a followup of the `/play` (or other interaction in
-- the game's channel) that caused it, outside Discord's global limit, and the old board message is
-- deleted. Its id is written here in the transaction that makes the new message the game's
-- board, so a restart finishes the delete (cogs.board_hop); the row goes once it is deleted.
CREATE TABLE old_boards (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, message_id)
);
