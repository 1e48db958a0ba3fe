"""Alert lifecycle: a pure state machine over stable alert keys, and the notifier that applies its actions."""
