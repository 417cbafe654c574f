"""Settings, one module per environment, each read from the environment."""
