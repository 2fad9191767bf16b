-- Whether an idempotency record (scripts.py: fingerprint, then a newline and
-- the answer once there is one) holds an answer; false for none or one in progress.
local function answered(record)
    return record and string.find(record, '\n', 1, true) ~= nil
end
