"""What writes documents from the code: the demo city `make run` seeds, the web app's copy of
the spec's constants, and docs/architecture.md's generated tables (`python -m agora ...`)."""
