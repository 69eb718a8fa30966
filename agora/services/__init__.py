"""Use cases, one module per feature; they compose store, actors and integrations."""
