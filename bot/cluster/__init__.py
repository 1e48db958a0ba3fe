"""Live, read-only access to Kubernetes clusters: the only package that imports the `kubernetes` SDK."""
