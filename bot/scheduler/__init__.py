"""Scheduled checks on APScheduler: the only package that imports it."""
