-- The events API (GET /api/events): every event a merchant must hear of is kept whether or not it has an endpoint,
-- numbered per merchant by `sequence`, which only grows and has no gap. The number is taken from the merchant's
-- counter row in the transaction that writes the event (storage/merchant-events.ts): the row lock holds a later
-- writer until the earlier commits, so no reader ever sees n + 1 committed before n. Test pings have no sequence.
CREATE TABLE merchant_event_counters (
  merchant_id text PRIMARY KEY REFERENCES merchants ON DELETE CASCADE,
  -- The last sequence given.
  last bigint NOT NULL
);

ALTER TABLE webhook_events ADD COLUMN sequence bigint;

-- Events written before this migration get their numbers in the order they were made.
UPDATE webhook_events e SET sequence = n.sequence
FROM (
  SELECT event_id, row_number() OVER (PARTITION BY merchant_id ORDER BY created_at, event_id) AS sequence
  FROM webhook_events WHERE type <> 'test.ping'
) n
WHERE e.event_id = n.event_id;

INSERT INTO merchant_event_counters (merchant_id, last)
SELECT merchant_id, max(sequence) FROM webhook_events WHERE sequence IS NOT NULL GROUP BY merchant_id;

CREATE UNIQUE INDEX webhook_events_by_sequence ON webhook_events (merchant_id, sequence) WHERE sequence IS NOT NULL;
