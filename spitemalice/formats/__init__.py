"""What the library reads and writes: position notation, JSON, game records, schemas, pictures.

Every reader bounds what it accepts (:mod:`spitemalice.limits`) and raises only the library's
documented errors; every document it writes validates against its published schema.
"""
