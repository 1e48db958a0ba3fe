"""Where evidence comes from: an evidence bundle or live clusters, behind one protocol."""
