"""The engine's working types, below both the signals and the diagnosis that runs them.

`target` selects, from everything read, what belongs to one target (per pod); `logview` gives a log its
line index and what one visit of its text found; `markers` locates the Ray wrapper's fixed lines in it; `hits`
is what a signal or log rule returns; `logtime` reads a log line's time. Nothing here imports from
`bot.signals` or `bot.diagnose`.
"""
