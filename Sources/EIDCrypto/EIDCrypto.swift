// Filled in by the crypto work.
