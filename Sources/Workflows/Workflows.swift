// Workflows.
