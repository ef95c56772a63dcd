"""Many tables on one broker: the topics and payloads both ends share, the table's publisher, the receiver.

`topics` and `payloads` are the contract between a table and the director (pure, typed, standard library).
`outbox` publishes a table's journal through MQTT; `receiver` is the director's end: it applies each event
once and asks a table to replay a gap. `testing.broker` starts a real Mosquitto for tests and benchmarks.
Of `referee` it imports only the words layer (`referee.words`, which imports only the rules engine), to say its
pages' words as the tables say theirs; of a table it sees only what the broker carries.
"""
