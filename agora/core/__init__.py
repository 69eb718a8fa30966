"""Pure domain: entities, constants, permission and validation rules. No I/O."""
