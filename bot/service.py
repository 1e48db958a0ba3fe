"""The use cases the CLI, the Slack handlers and the scheduler call: diagnose, check, snapshot."""
