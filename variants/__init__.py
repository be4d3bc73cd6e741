"""Built-in rule sets and house rules (import name ``spitemalice_variants``).

Each module is an ordinary plugin, registered through the ``spitemalice.variants`` entry-point
group in ``pyproject.toml`` exactly as a third-party package would register its own.
"""
