-- Every process looks for due timers every few seconds (several processes on PostgreSQL):
-- "deadline <= now" reads from this index instead of the whole table.
CREATE INDEX timers_by_deadline ON timers (deadline);
