# firmware rules (filled in by the firmware part)
firmware:
