"""What more than one bot uses: the feedback flow."""
