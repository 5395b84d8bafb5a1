print("make-logbook")
