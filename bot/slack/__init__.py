"""The Slack app: factory, Socket Mode and HTTP adapters, middleware. The only package (with handlers/) that imports the Slack SDK."""
