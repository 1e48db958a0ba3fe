SCENARIOS: list = []
