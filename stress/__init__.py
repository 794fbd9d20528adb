"""Load and fault scenarios against a gunicorn on loopback: ``make stress`` (``python -m stress.run``)."""
