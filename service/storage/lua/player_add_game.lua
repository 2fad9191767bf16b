-- KEYS: the player's games (sorted set). ARGV: game id, score (epoch ms), how
-- many to keep, ttl ms. Adds the game (or renews its score), keeps only the
-- newest games, and lets the list go ttl after its last game (when its games
-- have expired too).
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
