-- Many games per channel, each in its own thread (issue 27), and the Rematch handshake.

-- 1: this lobby was opened to be played in a thread of its channel (the server's
-- `game_threads` setting, with the bot allowed to make threads there, at /game new). Such
-- lobbies and games do not hold the channel: many run side by side.
ALTER TABLE games ADD COLUMN in_thread INTEGER NOT NULL DEFAULT 0;
-- Where a started in_thread game is played: the thread made from its lobby message (or the
-- channel itself, when no thread could be made). Commands typed there find the game by it.
ALTER TABLE games ADD COLUMN thread_id INTEGER;
-- A lobby opened with Rematch: the ended game it repeats (a second Rematch press joins it).
ALTER TABLE games ADD COLUMN rematch_of INTEGER;

-- At most one lobby or running game per channel, among the games played in the channel.
DROP INDEX games_one_active_per_channel;
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active') AND in_thread = 0;
CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_thread_lobbies ON games (channel_id) WHERE status = 'lobby' AND in_thread = 1;
CREATE INDEX games_by_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;
