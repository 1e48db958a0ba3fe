"""The Slack SDK adapter only: the app factory, HTTP and Socket Mode, the Web API client and the chat sink.

With handlers/ (the listeners), the only code that imports the Slack SDK.
"""
