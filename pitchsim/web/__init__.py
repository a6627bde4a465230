"""The local web table (``pitchsim serve``): play, review and odds in the browser."""
