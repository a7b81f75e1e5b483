// PC/SC.
