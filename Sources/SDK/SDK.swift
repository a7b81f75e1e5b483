// SDK messages.
