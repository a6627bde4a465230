from pitchsim.cli import main

if __name__ == "__main__":  # not when a doctest run imports it
    main()
