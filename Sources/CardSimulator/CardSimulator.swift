// Filled in by the simulator work.
