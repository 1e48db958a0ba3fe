"""Scheduled checks inside `serve`: the only package that imports APScheduler (in `background`)."""
