print("eid")
