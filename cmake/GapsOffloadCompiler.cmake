# Placeholder until the offload build lands.
message(FATAL_ERROR "GAPS_BACKEND=offload is not available yet")
