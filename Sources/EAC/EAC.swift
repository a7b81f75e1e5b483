// Filled in by the EAC work.
