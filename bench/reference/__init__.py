"""Reference players written independently of the bot's AI, to measure its levels against."""
