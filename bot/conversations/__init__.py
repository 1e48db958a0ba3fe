"""Use cases of the Slack side: what each command, button and alert post does, pure of the Slack SDK.

Listeners (handlers/) call them; they talk to Slack through the `ChatSink` port (`ports.py`) and run diagnoses
through the worker pool's `Engine` (`bot.workers`).
"""
