"""Tools for flow authors, built on the engine and never imported by it: replay scripts and
their expectations, the replay runner and its JUnit report, coverage, diagrams, session
reports and the `dialogue()` pytest plugin."""
