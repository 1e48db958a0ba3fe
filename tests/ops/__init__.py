"""The running bot as operators see it: the installed `rlark-bot serve` as a process, and its packaging."""
