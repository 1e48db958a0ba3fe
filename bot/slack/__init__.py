"""The Slack app: factory, Socket Mode and HTTP adapters, middleware.

With handlers/, the only code that imports the Slack SDK.
"""
