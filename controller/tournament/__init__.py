"""Tournaments across tables: tables that talk through an MQTT broker, an organiser that pairs rounds.

A café or a club has several tables, each a Pi running ``bitbox play``. Each table joins a
tournament through an MQTT broker (Mosquitto): it announces itself with a retained status (its last
will marks it offline), takes its pairing from the organiser, and publishes each finished game with
QoS 1 until the organiser acknowledges it. The organiser (``bitbox tournament run``) pairs each
round over the tables that are online, checks every result by replaying the game through the rules,
keeps its state in SQLite and serves the standings page. The broker is the only shared part.

* :mod:`~controller.tournament.results`: how a finished game is read (through the registry);
* :mod:`~controller.tournament.pairing`: Swiss, round-robin and single elimination;
* :mod:`~controller.tournament.standings`: points and tie-breaks;
* :mod:`~controller.tournament.store`: the organiser's SQLite state;
* :mod:`~controller.tournament.topics`: the broker's address and the topic layout;
* :mod:`~controller.tournament.organiser` and :mod:`~controller.tournament.table`: the two ends;
* :mod:`~controller.tournament.broker`: a Mosquitto of our own for the demo, the tests and the bench.

docs/tournaments.md tells how to set one up.
"""
