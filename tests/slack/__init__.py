"""Local stand-ins for Slack: the Web API over HTTP, Socket Mode over WebSocket, signed requests, a text view."""
