-- KEYS: the player's games (sorted set). ARGV: game id, score (epoch ms), how many to keep.
-- Adds the game (or renews its score) and keeps only the newest games.
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
return 1
