"""The Discord surface: slash commands, the custom_id router, the board presenter."""
