"""The composition root's builders, one per feature: each takes what the features below it
built (`base.Foundation` for what most share) and calls every constructor with keyword
arguments. `agora/app.py` `build_services` calls them in order and fills the registry."""
