-- The last public lines of each game, shown in the board's "Recent" field, so a restarted
-- bot draws the same board it last announced.
ALTER TABLE games ADD COLUMN recent TEXT NOT NULL DEFAULT '[]';
