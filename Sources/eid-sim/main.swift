print("eid-sim")
